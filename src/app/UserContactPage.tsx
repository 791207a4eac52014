import ContactPage from '../features/contact/ContactPage';
import { HowtoSection } from '../features/howto/HowtoSection';

/**
 * /user/contact: the contact page with the how-to videos, so a player finds them without the public /howto, which
 * would end the session (spec §4; issue 40 item 8). Composed here: features do not import each other.
 */
export default function UserContactPage() {
  return (
    <ContactPage>
      <HowtoSection />
    </ContactPage>
  );
}
