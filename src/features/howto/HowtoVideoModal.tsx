import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { LOCALE_NAMES, LOCALES, standardLanguageTag } from '../../lib/locale';
import type { HowtoVideo } from './howtoApi';
import { Skeleton } from '../../components/Skeleton';

/** The video player's id in the modal stack. */
export const HOWTO_VIDEO_MODAL = 'howtoVideo';

interface Props {
  title: string;
  /** undefined while the list is loading; null url: there is no video. */
  video: HowtoVideo | undefined;
  loading: boolean;
  onClose: () => void;
}

/**
 * A how-to video in a dialog (spec §2): the browser's own controls, reachable with Tab (the video is a tab stop
 * in the dialog's focus trap), captions in each language given with the player's language on by default, the
 * poster until it plays. Closing pauses it and winds it back. No video, or one that fails to load or decode,
 * shows a message instead of a broken player.
 */
export function HowtoVideoModal({ title, video, loading, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const player = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const url = video?.url ?? null;

  useEffect(() => {
    setFailed(false);
  }, [url]);

  // The dialog unmounts on close: stop the video there, so nothing plays on (or resumes) unseen.
  useEffect(() => {
    const element = player.current;
    return () => {
      if (!element) return;
      element.pause();
      element.currentTime = 0;
    };
  }, [url, failed]);

  const missing = !loading && (!url || failed);

  return (
    <Modal id={HOWTO_VIDEO_MODAL} title={title} onClose={onClose}>
      <div className="howto-video" data-testid="howto-video">
        {loading && (
          <Skeleton />
        )}
        {missing && (
          <p className="howto-video__missing" role="status" data-testid="howto-video-missing">
            {t('howto.missing')}
          </p>
        )}
        {!loading && url && !failed && (
          <video
            ref={player}
            className="howto-video__player"
            src={url}
            poster={video?.poster ?? undefined}
            controls
            preload="metadata"
            playsInline
            tabIndex={0}
            aria-label={t('howto.player', { title })}
            onError={() => setFailed(true)}
            data-testid="howto-video-player"
          >
            {LOCALES.filter((lang) => video?.captions[lang]).map((lang) => (
              <track
                key={lang}
                kind="captions"
                src={video?.captions[lang]}
                srcLang={standardLanguageTag(lang)}
                label={LOCALE_NAMES[lang]}
                default={lang === locale}
              />
            ))}
          </video>
        )}
      </div>
    </Modal>
  );
}
