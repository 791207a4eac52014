import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the real register screen lands (see README.md here). */
export default function RegisterPage() {
  return <ComingSoon titleKey="pages.register" />;
}
