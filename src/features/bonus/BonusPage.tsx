import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the bonus screen is built; the route already points here. */
export default function BonusPage() {
  return <ComingSoon titleKey="pages.bonus" />;
}
