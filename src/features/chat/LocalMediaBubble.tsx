import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '../../core/hooks';
import { errorText } from '../../core/notify';
import type { LocalMedia } from './chatSlice';
import { removeMedia, resendMedia } from './chatThunks';

/**
 * A picture or video of this device on its way (spec §4 media status): uploading with its progress, sending,
 * or failed with why, Resend and Remove. Once the server has it, it shows as the server's message.
 */
export function LocalMediaBubble({ media }: { media: LocalMedia }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const nameId = useId();
  const { machine } = media;
  return (
    <li className="chat-msg chat-msg--customer chat-msg--local" data-testid="chat-local" data-status={machine.status}>
      <div className="chat-msg__bubble">
        <span className="visually-hidden">{t('chat.you')}: </span>
        <p className="chat-msg__text" id={nameId}>
          {media.fileName}
        </p>
        {machine.status === 'uploading_file' && (
          <>
            <progress
              className="chat-progress"
              value={machine.loaded}
              max={Math.max(machine.total, 1)}
              aria-label={t('chat.uploadProgress', { name: media.fileName })}
            />
            <p className="chat-msg__status">{t('chat.status.uploading_file', { percent: percentOf(machine.loaded, machine.total) })}</p>
          </>
        )}
        {machine.status === 'sending' && <p className="chat-msg__status">{t('chat.status.sending')}</p>}
        {machine.status === 'failed' && (
          <>
            <p className="chat-msg__status chat-msg__status--failed">{t('chat.status.failed', { reason: errorText(machine.code) })}</p>
            <div className="chat-msg__actions">
              <button type="button" className="button button--small" aria-describedby={nameId} onClick={() => void dispatch(resendMedia(media.localId))}>
                {t('chat.resend')}
              </button>
              <button type="button" className="button button--small" aria-describedby={nameId} onClick={() => dispatch(removeMedia(media.localId))}>
                {t('chat.remove')}
              </button>
            </div>
          </>
        )}
      </div>
    </li>
  );
}

const percentOf = (loaded: number, total: number) => (total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0);
