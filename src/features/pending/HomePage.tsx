import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the real home screen lands (see README.md here). */
export default function HomePage() {
  return <ComingSoon titleKey="pages.home" />;
}
