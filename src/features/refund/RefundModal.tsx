import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useFormatAmount } from '../../components/useFormatAmount';
import { localized } from '../../lib/localized';
import { useGetRefundCheckQuery } from './refundApi';
import { refundLeft } from './refundSlice';
import { receiveRequested, refundClosing, selectRefundFlow } from './refundStore';
import { RefundLog } from './RefundLog';
import { selectRefundOffer } from './refundRules';
import { Skeleton } from '../../components/Skeleton';
import '../../components/forms.css';
import './refund.css';

/** The refund modal's id in the modal stack; home's refund widget opens it behind the banner gate. */
export const REFUND_MODAL = 'refund';

/**
 * Spec §2 refund modal: the check (sanitized info HTML, refundAmount, refundSuccess and refundFail); receive,
 * disabled with two condition lines while a bonus is active; the not-found text when there is nothing; the
 * refund log. A refused receive is a red toast (spec §8, from the base query). Closing after a receive reloads
 * the wallet (spec §4: closed with a true flag). The receive is the store's machine (refundSlice); this is its view.
 */
export default function RefundModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const format = useFormatAmount();
  const check = useGetRefundCheckQuery(undefined, { refetchOnMountOrArgChange: true });
  const flow = useAppSelector(selectRefundFlow);
  // Each opening receives at most once: what this one received goes with it.
  useEffect(() => () => void dispatch(refundLeft()), [dispatch]);
  // Each opening asks again (a bonus may have been taken or cancelled since): the cache's answer from an earlier
  // opening is not shown meanwhile, or receive would show that opening's state (e.g. disabled for a bonus now gone).
  const [openedAt] = useState(() => Date.now());
  const answered = check.fulfilledTimeStamp !== undefined && check.fulfilledTimeStamp >= openedAt;
  const asking = !answered && !check.isError;
  const showChecking = useDelayedFlag(asking);
  const showReceiving = useDelayedFlag(flow.status === 'receiving');
  const receivedMessage = useRef<HTMLDivElement>(null);

  // The receive button goes once the refund is received: its message takes the focus, which would otherwise
  // fall out of the dialog (Escape and the Tab trap only work inside it).
  useEffect(() => {
    if (flow.status === 'received') receivedMessage.current?.focus();
  }, [flow.status]);

  const close = () => {
    dispatch(refundClosing());
    onClose();
  };

  const onReceive = () => void dispatch(receiveRequested());

  const data = answered ? check.data : undefined;
  const offer = data ? selectRefundOffer(data) : null;
  return (
    <Modal id={REFUND_MODAL} title={t('refund.title')} onClose={close}>
      <div className="refund" data-testid="refund-modal">
        {asking && showChecking && (
          <Skeleton testId="refund-checking" />
        )}
        {check.isError && !data && (
          <p className="refund__failed" data-testid="refund-check-failed">
            {t('refund.loadFailed')}{' '}
            <button type="button" className="link-button" onClick={() => void check.refetch()}>
              {t('refund.retry')}
            </button>
          </p>
        )}
        {data && offer && (
          <>
            <SafeHtml html={localized(data.info, locale)} className="refund__info" />
            <dl className="refund__rates">
              <div>
                <dt>{t('refund.success')}</dt>
                <dd data-testid="refund-success">{t('refund.percent', { percent: data.refundSuccess })}</dd>
              </div>
              <div>
                <dt>{t('refund.fail')}</dt>
                <dd data-testid="refund-fail">{t('refund.percent', { percent: data.refundFail })}</dd>
              </div>
            </dl>
            {flow.status === 'received' && (
              <div ref={receivedMessage} tabIndex={-1} className="alert alert--success" role="status" data-testid="refund-received">
                {t('refund.received', { amount: format(flow.amount) })}
              </div>
            )}
            {offer.kind === 'nothing' ? (
              flow.status !== 'received' && (
                <p className="refund__none" role="status" data-testid="refund-not-found">
                  {t('refund.notFound')}
                </p>
              )
            ) : (
              <div className="refund__offer">
                <p className="refund__amount">
                  <span>{t('refund.amount')}</span> <strong data-testid="refund-amount">{format(offer.amount)}</strong> {t('refund.baht')}
                </p>
                {offer.kind === 'blocked' && (
                  <ul className="refund__conditions" id="refund-conditions" data-testid="refund-conditions">
                    <li>{t('refund.condition1')}</li>
                    <li>{t('refund.condition2')}</li>
                  </ul>
                )}
                {flow.status !== 'received' && (
                  <button
                    type="button"
                    className="button button--primary"
                    onClick={onReceive}
                    disabled={offer.kind === 'blocked' || flow.status === 'receiving'}
                    aria-busy={flow.status === 'receiving'}
                    aria-describedby={offer.kind === 'blocked' ? 'refund-conditions' : undefined}
                    data-testid="refund-receive"
                  >
                    {showReceiving ? t('refund.receiving') : t('refund.receive')}
                  </button>
                )}
              </div>
            )}
          </>
        )}
        <RefundLog />
      </div>
    </Modal>
  );
}
