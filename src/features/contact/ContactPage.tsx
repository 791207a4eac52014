import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { APP_VERSION } from '../../core/build';
import { chatOpened } from '../../core/chatEvents';
import { useAppDispatch } from '../../core/hooks';
import { useGetChatWidgetEnabledQuery } from '../../core/lookupApi';
import { ContactIcon } from '../../components/icons';
import { PageTitle } from '../../components/PageTitle';
import { SafeHtml } from '../../components/SafeHtml';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { safeImage, safeLink, useGetContactQuery } from './contactApi';
import { Skeleton } from '../../components/Skeleton';
import './contact.css';

/**
 * /contact and /user/contact (spec §2): the operator's contact text (sanitized HTML), the LINE QR when there is
 * one, the LINE name or a link to add it, "Chat with us" (opens the chat widget) when the operator enabled the
 * chat, and the app's version. A failed load says so, with a retry. `children` go above the version: on
 * /user/contact the how-to videos (src/app/UserContactPage.tsx).
 */
export default function ContactPage({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const contact = useGetContactQuery();
  const chat = useGetChatWidgetEnabledQuery();
  const showLoading = useDelayedFlag(contact.isLoading);
  const data = contact.data;
  const link = safeLink(data?.lineLink);
  const qr = safeImage(data?.lineQR);
  const lineName = data?.lineName?.trim() || null;

  return (
    <section className="page page--narrow contact">
      <PageTitle>{t('pages.contact')}</PageTitle>
      {contact.isLoading && showLoading && (
        <Skeleton testId="contact-loading" />
      )}
      {contact.isError && !contact.isFetching && (
        <div className="contact__failed" role="alert" data-testid="contact-failed">
          <p>{t('contact.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void contact.refetch()}>
            {t('contact.retry')}
          </button>
        </div>
      )}
      {data && (
        <div className="contact__card" data-testid="contact-card">
          <SafeHtml className="contact__text" html={data.contactText} />
          {(qr || link || lineName) && (
            <div className="contact__line">
              <h2 className="contact__heading">{t('contact.line')}</h2>
              {qr && <img className="contact__qr" src={qr} alt={t('contact.lineQR', { name: lineName ?? t('contact.line') })} width={200} height={200} data-testid="contact-qr" />}
              {link ? (
                <a className="button button--primary contact__line-link" href={link} target="_blank" rel="noopener noreferrer" data-testid="contact-line-link">
                  {t('contact.addLine', { name: lineName ?? t('contact.line') })}
                </a>
              ) : (
                lineName && (
                  <p className="contact__line-name" data-testid="contact-line-name">
                    {lineName}
                  </p>
                )
              )}
            </div>
          )}
        </div>
      )}
      {chat.data?.enableChatWidget === true && (
        <button type="button" className="button contact__chat" onClick={() => dispatch(chatOpened())} data-testid="contact-chat">
          <ContactIcon />
          <span>{t('contact.chat')}</span>
        </button>
      )}
      {children}
      <p className="contact__version muted" data-testid="app-version">
        {t('contact.version', { version: APP_VERSION })}
      </p>
    </section>
  );
}
