import { useId, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode } from '../../core/apiErrors';
import { useAppDispatch } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { AttachIcon, SendIcon } from './chatIcons';
import { ATTACH_ACCEPT, checkAttachment, outgoingText, TEXT_MAX } from './chatRules';
import { sendMedia, sendText } from './chatThunks';

/**
 * The message box (spec §5 Chat): text up to 2000 characters with its counter (blank sends nothing), Enter
 * sends and Shift+Enter starts a line; the attach button picks a picture or video, checked before it goes up
 * with the spec's two messages.
 */
export function Composer({ disabled, extraError }: { disabled: boolean; extraError: string | null }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const counterId = useId();

  const send = async () => {
    if (sending || disabled || outgoingText(text) === null) return;
    const request = dispatch(sendText(text));
    if (!request) return;
    setSending(true);
    setError(null);
    const result = await request;
    setSending(false);
    if ('error' in result && result.error) setError(t('chat.sendFailed', { reason: errorText(errorCode(result.error)) }));
    else setText('');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same file picked again must still fire change.
    input.value = '';
    if (!file || disabled) return;
    const check = checkAttachment(file);
    if (!check.ok) {
      setError(check.reason === 'tooLarge' ? t('chat.fileTooLarge', { mb: check.maxMb }) : t('chat.fileNotSupported'));
      return;
    }
    setError(null);
    void dispatch(sendMedia(file, check.kind));
  };

  const shown = error ?? extraError;
  return (
    <form className="chat-composer" onSubmit={onSubmit}>
      {shown && (
        <p className="chat-composer__error" role="alert" data-testid="chat-error">
          {shown}
        </p>
      )}
      <div className="chat-composer__row">
        <button
          type="button"
          className="icon-button"
          aria-label={t('chat.attach')}
          title={t('chat.attach')}
          aria-disabled={disabled}
          onClick={() => !disabled && fileInput.current?.click()}
        >
          <AttachIcon />
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={ATTACH_ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          data-testid="chat-file"
        />
        <label className="visually-hidden" htmlFor={inputId}>
          {t('chat.inputLabel')}
        </label>
        <textarea
          id={inputId}
          className="chat-composer__input"
          rows={1}
          maxLength={TEXT_MAX}
          value={text}
          placeholder={t('chat.placeholder')}
          aria-describedby={counterId}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="icon-button chat-composer__send" aria-label={t('chat.send')} title={t('chat.send')} aria-disabled={sending || disabled}>
          <SendIcon />
        </button>
      </div>
      <p className="chat-composer__counter" id={counterId}>
        <span aria-hidden="true">
          {text.length}/{TEXT_MAX}
        </span>
        <span className="visually-hidden">{t('chat.counter', { count: text.length, max: TEXT_MAX })}</span>
      </p>
    </form>
  );
}
