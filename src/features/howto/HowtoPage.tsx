import { useTranslation } from 'react-i18next';

import { PageTitle } from '../../components/PageTitle';
import { HowtoVideos } from './HowtoVideos';
import './howto.css';

/** /howto (spec §2): the how-to videos for visitors (a player finds them on /user/contact, HowtoVideos). */
export default function HowtoPage() {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow howto">
      <PageTitle>{t('pages.howto')}</PageTitle>
      <p className="howto__intro">{t('howto.intro')}</p>
      <HowtoVideos />
    </section>
  );
}
