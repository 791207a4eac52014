import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the howto screen is built; the route already points here. */
export default function HowtoPage() {
  return <ComingSoon titleKey="pages.howto" />;
}
