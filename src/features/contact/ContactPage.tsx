import { ComingSoon } from '../../components/ComingSoon';

/** Stand-in until the contact screen is built; the route already points here. */
export default function ContactPage() {
  return <ComingSoon titleKey="pages.contact" />;
}
