import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { HowtoVideos } from './HowtoVideos';

/** The anchor of the how-to videos in the user area: the support bot's links for a player (server/plugins/chat/bot.ts). */
export const HOWTO_ANCHOR = 'howto';

/**
 * The how-to videos as a section of a page of the user area (/user/contact#howto): a player holding a token who
 * opened the public /howto would lose the session (spec §4), so the videos are offered here too.
 */
export function HowtoSection() {
  const { t } = useTranslation();
  const { hash, key } = useLocation();
  const section = useRef<HTMLElement>(null);
  // The router does not scroll to a fragment: arriving at #howto shows the videos.
  useEffect(() => {
    if (hash === `#${HOWTO_ANCHOR}`) section.current?.scrollIntoView?.({ block: 'start' });
  }, [hash, key]);
  return (
    <section id={HOWTO_ANCHOR} ref={section} className="howto-section" aria-labelledby="howto-section-title" data-testid="howto-section">
      <h2 id="howto-section-title" className="howto-section__title">
        {t('howto.videos')}
      </h2>
      <HowtoVideos />
    </section>
  );
}
