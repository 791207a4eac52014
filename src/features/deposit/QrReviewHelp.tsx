import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { chatOpened } from '../../core/chatEvents';
import { useAppDispatch } from '../../core/hooks';
import { useGetChatWidgetEnabledQuery } from '../../core/lookupApi';

interface QrReviewHelpProps {
  /** What the player gives support: the statement line's short reference (issue 40), or the QR's id from an older server. */
  reference: string;
  /** Staff did not accept the payment: what next is to contact support. */
  rejected?: boolean;
  /** Leaving the deposit modal for support (the contact page, or the chat widget over the layout). */
  onLeave(): void;
}

/**
 * A QR paid with another amount (REVIEW, docs/deposits.md): its reference, what happens next (staff check the
 * payment, then credit the wallet or return the money; no time is promised, the server has no setting for it),
 * and how to reach support: the contact page, and "Chat with us" when the operator enabled the chat widget.
 */
export function QrReviewHelp({ reference, rejected = false, onLeave }: QrReviewHelpProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const chat = useGetChatWidgetEnabledQuery();
  return (
    <div className="qr__review" data-testid="qr-review-help">
      <p>
        {t('deposit.qr.reviewHelp.reference')}:{' '}
        <strong className="qr__reference" translate="no" data-testid="qr-review-reference">
          {reference}
        </strong>
      </p>
      <p data-testid="qr-review-next">{rejected ? t('deposit.qr.reviewRejected') : t('deposit.qr.reviewChecking')}</p>
      <p>{t('deposit.qr.reviewHelp.support')}</p>
      <div className="qr__support">
        <Link className="button" to="/user/contact" onClick={onLeave} data-testid="qr-review-contact">
          {t('deposit.qr.reviewHelp.contact')}
        </Link>
        {chat.data?.enableChatWidget === true && (
          <button
            type="button"
            className="button"
            onClick={() => {
              onLeave();
              dispatch(chatOpened());
            }}
            data-testid="qr-review-chat"
          >
            {t('contact.chat')}
          </button>
        )}
      </div>
    </div>
  );
}
