import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { formatChatTime } from '../../lib/format';
import type { ChatButton, ChatMessage, GenericElement, MediaPayload } from './chatApi';
import { buttonsOf, mediaSrc, TALK_TO_STAFF, telHref, webTarget } from './chatRules';

interface ButtonsProps {
  buttons: ChatButton[];
  busy: boolean;
  onPostback: (button: ChatButton) => void;
  onNavigate: () => void;
  className?: string;
}

/**
 * A message's buttons (chat contract Button): web opens a same-site path in the app or an https URL in a new
 * tab, call dials, postback sends its code as the customer's reply; anything else is shown as plain text.
 */
function ChatButtons({ buttons, busy, onPostback, onNavigate, className = 'chat-buttons' }: ButtonsProps) {
  const { t } = useTranslation();
  if (buttons.length === 0) return null;
  return (
    <ul className={className}>
      {buttons.map((button, index) => {
        const key = `${index}-${button.title}`;
        if (button.type === 'postback') {
          return (
            <li key={key}>
              <button type="button" className="chat-button" aria-disabled={busy} onClick={() => !busy && onPostback(button)}>
                {button.title}
              </button>
            </li>
          );
        }
        if (button.type === 'web') {
          const target = webTarget(button.payload);
          if (target?.kind === 'internal') {
            return (
              <li key={key}>
                <Link to={target.to} className="chat-button" onClick={onNavigate}>
                  {button.title}
                </Link>
              </li>
            );
          }
          if (target?.kind === 'external') {
            return (
              <li key={key}>
                <a href={target.href} target="_blank" rel="noopener noreferrer" className="chat-button">
                  {button.title}
                  <span className="visually-hidden"> {t('chat.newTab')}</span>
                </a>
              </li>
            );
          }
        }
        if (button.type === 'call') {
          const href = telHref(button.payload);
          if (href) {
            return (
              <li key={key}>
                <a href={href} className="chat-button">
                  {button.title}
                </a>
              </li>
            );
          }
        }
        return (
          <li key={key}>
            <span className="chat-button chat-button--inert">{button.title}</span>
          </li>
        );
      })}
    </ul>
  );
}

function Media({ payload, from }: { payload: MediaPayload; from: string }) {
  const { t } = useTranslation();
  const src = mediaSrc(payload.filePath);
  if (!src) return <p className="chat-msg__text">{payload.message}</p>;
  if (payload.fileType === 'image') return <img className="chat-media" src={src} alt={t('chat.imageFrom', { name: from })} loading="lazy" />;
  if (payload.fileType === 'video') {
    return <video className="chat-media" src={src} controls preload="metadata" aria-label={t('chat.videoFrom', { name: from })} />;
  }
  return (
    <a href={src} download className="chat-file">
      {t('chat.download', { name: payload.message || src.split('/').pop() })}
    </a>
  );
}

function Cards({ elements, ...buttons }: { elements: GenericElement[] } & Omit<ButtonsProps, 'buttons'>) {
  return (
    <ul className="chat-cards">
      {elements.map((card, index) => {
        const image = mediaSrc(card.image_url);
        return (
          <li key={`${index}-${card.title}`} className="chat-card">
            {image && <img className="chat-card__image" src={image} alt={card.title} loading="lazy" />}
            <p className="chat-card__title">{card.title}</p>
            {card.subtitle && <p className="chat-card__subtitle">{card.subtitle}</p>}
            <ChatButtons buttons={card.buttons ?? []} {...buttons} />
          </li>
        );
      })}
    </ul>
  );
}

interface MessageBubbleProps {
  message: ChatMessage;
  /** Its quick replies are offered (it is the newest message). */
  quickReplies: boolean;
  /** A "talk to staff" button goes under it (a bot message, chatRules.offersTalkToStaff). */
  talkToStaff: boolean;
  /** A local media message of this device that the server stored. */
  sent: boolean;
  postbackBusy: boolean;
  onPostback: (button: ChatButton) => void;
  onNavigate: () => void;
}

/** One message (spec §3 Chat conversation), by type: text, buttons, media, quick replies, generic cards, postback. */
export const MessageBubble = memo(function MessageBubble({ message, quickReplies, talkToStaff, sent, postbackBusy, onPostback, onNavigate }: MessageBubbleProps) {
  const { t } = useTranslation();
  const own = message.sender === 'customer';
  const from = own ? t('chat.you') : message.name || t('chat.support');
  const payload = message.payload;
  const actions = { busy: postbackBusy, onPostback, onNavigate };

  let body;
  if (message.message_type === 'media' && payload && 'filePath' in payload) {
    body = <Media payload={payload} from={from} />;
  } else if (message.message_type === 'generic' && payload && 'elements' in payload) {
    body = (
      <>
        {message.message && <p className="chat-msg__text">{message.message}</p>}
        <Cards elements={payload.elements ?? []} {...actions} />
      </>
    );
  } else {
    body = <p className="chat-msg__text">{message.message}</p>;
  }

  return (
    <li className={`chat-msg chat-msg--${own ? 'customer' : 'other'}`} data-testid="chat-message">
      <div className="chat-msg__bubble">
        {!own && <p className="chat-msg__from">{from}</p>}
        {own && <span className="visually-hidden">{from}: </span>}
        {body}
        {message.message_type === 'buttons' && <ChatButtons buttons={buttonsOf(message)} {...actions} />}
      </div>
      {quickReplies && (
        <div role="group" aria-label={t('chat.quickReplies')}>
          <ChatButtons buttons={buttonsOf(message)} className="chat-quick-replies" {...actions} />
        </div>
      )}
      {talkToStaff && (
        <ChatButtons
          buttons={[{ title: t('chat.talkToStaff'), type: 'postback', payload: TALK_TO_STAFF }]}
          className="chat-quick-replies chat-msg__staff"
          {...actions}
        />
      )}
      <p className="chat-msg__meta">
        <time dateTime={message.createdAt}>{formatChatTime(message.createdAt)}</time>
        {sent && <span className="chat-msg__status"> · {t('chat.status.succeed')}</span>}
      </p>
    </li>
  );
});
