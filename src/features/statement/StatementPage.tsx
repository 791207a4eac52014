import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the statement screen is built; the route already points here. */
export default function StatementPage() {
  return <ComingSoon titleKey="pages.statement" />;
}
