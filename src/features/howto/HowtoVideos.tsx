import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { HowtoIcon } from '../../components/icons';
import { Skeleton } from '../../components/Skeleton';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useModal } from '../../components/useModal';
import { HOWTO_KEYS, useGetHowtoQuery, type HowtoKey } from './howtoApi';
import { HOWTO_VIDEO_MODAL, HowtoVideoModal } from './HowtoVideoModal';
import './howto.css';

/**
 * The five how-to subjects (wallet, play, balance, bonus, cancel bonus), each a button that opens its video in a
 * dialog: on the public /howto and, for a logged-in player, on /user/contact (a public page would end the
 * player's session, spec §4). The videos are the operator's (GET /api/lookup/howto); while they load the subjects
 * are already there, and a failed load says so with a retry.
 */
export function HowtoVideos() {
  const { t } = useTranslation();
  const lookup = useGetHowtoQuery();
  const showLoading = useDelayedFlag(lookup.isLoading);
  const player = useModal(HOWTO_VIDEO_MODAL);
  const [chosen, setChosen] = useState<HowtoKey | null>(null);
  const videoOf = (key: HowtoKey) => lookup.data?.videos.find((video) => video.key === key);

  const open = (key: HowtoKey) => {
    setChosen(key);
    player.open();
  };

  return (
    <>
      {lookup.isLoading && showLoading && <Skeleton variant="card" testId="howto-loading" />}
      {lookup.isError && !lookup.isFetching && (
        <div className="howto__failed" role="alert" data-testid="howto-failed">
          <p>{t('howto.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void lookup.refetch()}>
            {t('howto.retry')}
          </button>
        </div>
      )}
      <ul className="howto__list">
        {HOWTO_KEYS.map((key) => {
          const poster = videoOf(key)?.poster;
          return (
            <li key={key}>
              <button type="button" className="howto-item" onClick={() => open(key)} aria-haspopup="dialog" data-testid={`howto-${key}`}>
                <span className="howto-item__thumb" aria-hidden="true">
                  {poster ? <img src={poster} alt="" loading="lazy" /> : null}
                  <span className="howto-item__play">
                    <HowtoIcon />
                  </span>
                </span>
                <span className="howto-item__text">
                  <span className="howto-item__title">{t(`howto.items.${key}.title`)}</span>
                  <span className="howto-item__description">{t(`howto.items.${key}.description`)}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {player.isOpen && chosen && (
        <HowtoVideoModal title={t(`howto.items.${chosen}.title`)} video={videoOf(chosen)} loading={lookup.isLoading} onClose={player.close} />
      )}
    </>
  );
}
