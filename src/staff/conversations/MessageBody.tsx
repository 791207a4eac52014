import { useStaffI18n } from '../i18n/I18n';
import type { ButtonView, MessageView } from './messageParts';

/**
 * A button as the customer saw it. Links open in a new tab without access to this page; postbacks are shown, not
 * pressed: the console never acts for the customer.
 */
function ButtonItem({ button }: { button: ButtonView }) {
  const { t } = useStaffI18n();
  const { action } = button;
  if (action.kind === 'link') {
    return (
      <a className="msg-button" href={action.href} target="_blank" rel="noopener noreferrer">
        {button.title}
      </a>
    );
  }
  if (action.kind === 'call') {
    return (
      <a className="msg-button" href={action.href}>
        {button.title} <span className="staff-muted">({t('message.call', { number: action.number })})</span>
      </a>
    );
  }
  return <span className="msg-button msg-button--static">{action.kind === 'postback' ? t('message.postbackButton', { title: button.title }) : button.title}</span>;
}

function ButtonList({ buttons, label }: { buttons: ButtonView[]; label: string }) {
  if (buttons.length === 0) return null;
  return (
    <ul className="msg-buttons" aria-label={label}>
      {buttons.map((b, i) => (
        <li key={`${i}-${b.title}`}>
          <ButtonItem button={b} />
        </li>
      ))}
    </ul>
  );
}

function Text({ text }: { text: string }) {
  return text ? <p className="msg-text">{text}</p> : null;
}

export function MessageBody({ view }: { view: MessageView }) {
  const { t } = useStaffI18n();
  switch (view.kind) {
    case 'text':
      return <Text text={view.text} />;
    case 'buttons':
      return (
        <>
          <Text text={view.text} />
          <ButtonList buttons={view.buttons} label={t('message.buttons')} />
        </>
      );
    case 'quick_replies':
      return (
        <>
          <Text text={view.text} />
          <ButtonList buttons={view.replies} label={t('message.quickReplies')} />
        </>
      );
    case 'postback':
      return <p className="msg-text msg-text--postback">{t('message.tapped', { title: view.title || view.payload || '' })}</p>;
    case 'media': {
      const kind = t(`message.${view.fileType}`);
      return (
        <>
          {view.url === null ? (
            <p className="msg-text staff-muted">{t('message.unavailable', { kind })}</p>
          ) : view.fileType === 'image' ? (
            <a href={view.url} target="_blank" rel="noopener noreferrer" className="msg-media">
              <img src={view.url} alt={kind} loading="lazy" />
            </a>
          ) : view.fileType === 'video' ? (
            <div className="msg-media">
              <video src={view.url} controls preload="metadata" aria-label={view.text || kind} />
              <a href={view.url} target="_blank" rel="noopener noreferrer">
                {t('message.open', { kind })}
              </a>
            </div>
          ) : (
            <a href={view.url} target="_blank" rel="noopener noreferrer" className="msg-media">
              {t('message.open', { kind })}
            </a>
          )}
          <Text text={view.text} />
        </>
      );
    }
    case 'generic':
      return (
        <>
          <Text text={view.text} />
          <ul className="msg-cards" aria-label={t('message.cards')}>
            {view.cards.map((card, i) => (
              <li key={`${i}-${card.title}`} className="msg-card">
                {card.imageUrl && <img src={card.imageUrl} alt="" loading="lazy" />}
                <p className="msg-card__title">{card.title}</p>
                {card.subtitle && <p className="msg-card__subtitle">{card.subtitle}</p>}
                <ButtonList buttons={card.buttons} label={t('message.buttons')} />
              </li>
            ))}
          </ul>
        </>
      );
  }
}
