import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the real profile screen lands (see README.md here). */
export default function ProfilePage() {
  return <ComingSoon titleKey="pages.profile" />;
}
