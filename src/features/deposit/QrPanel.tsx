import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Receipt } from '../../components/Receipt';
import { amountExample, keepAmountCharacters, readAmount, writeAmount } from '../../lib/amountInput';
import { formatAmount } from '../../lib/format';
import { CreditTimeNote } from './ConfiguredNotes';
import { useGetDepositLookupQuery } from './depositApi';
import { QrFrame } from './QrFrame';
import { QrImage } from './QrImage';
import { QrReviewHelp } from './QrReviewHelp';
import { QrSaveActions } from './QrSaveActions';
import { useKeepFocus } from './useKeepFocus';
import { formatCountdown, isCountdownUrgent, parseAmount, qrCreateDecision, QR_MINIMUM, QR_QUICK_PICKS, secondsLeft } from './qrRules';
import type { QrBank } from './qrBanks';
import type { QrMachine } from './qrSlice';
import { qrReplaceAsked, qrReplaceConfirmed, qrReplaceDropped, qrReplaceKept } from './qrReplaceSlice';
import { selectQrReplace } from './qrReplaceStore';

interface QrPanelProps {
  bank: QrBank;
  bankName: string;
  machine: QrMachine;
  now: number;
  onCreate(amount: number): void;
  onCancel(qrcodeId: string): void;
  /** The live QR at another bank that creating here would cancel (qrToReplace), or null: then create asks first. */
  replaces: { bankName: string; amount: number; expiresAt: number } | null;
  /** Leaving the modal for support (from the review help). */
  onLeave(): void;
  /** Who the money goes to (the channel's account name, in the player's language), shown in the QR's frame. */
  payeeName?: string;
}

/** One bank's QR deposit: the amount form with quick picks, or the QR with its countdown and cancel. */
export function QrPanel({ bank, bankName, machine, now, onCreate, onCancel, replaces, onLeave, payeeName }: QrPanelProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const [text, setText] = useState('');
  const [tooLow, setTooLow] = useState(false);
  // The amount waiting for the player's answer to "cancel the other QR?" (qrReplaceSlice); only "Cancel it and create" creates.
  const ask = useAppSelector(selectQrReplace);
  const confirming = ask.status === 'asking' && ask.bank === bank ? ask.amount : null;
  const createButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const refocusCreate = useRef(false);
  const confirmTitleId = useId();
  const confirmTextId = useId();
  const asking = confirming !== null && replaces !== null;
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useKeepFocus(panel, machine.status);
  const inputId = useId();
  const hintId = useId();
  const amount = parseAmount(text, locale);
  // The other language's marks (a Lao 150.50): said once the player tries to create, not while typing 1.000.
  const reading = readAmount(text, locale);
  const ambiguous = reading.kind === 'refused' && reading.reason === 'ambiguous';
  // The minimum the server enforces (deposit lookup, already loaded by the modal); the spec's until it says.
  const minimum = useGetDepositLookupQuery(useAppSelector(selectLocale), { selectFromResult: ({ data }) => ({ min: data?.qrMinimums?.[bank] }) }).min ?? QR_MINIMUM[bank];
  // An ambiguous amount keeps the button: pressing it says how to write the amount (KBANK would disable it as 0).
  const decision = ambiguous ? 'ignored' : qrCreateDecision(bank, amount, minimum);
  const baht = (value: number) => formatAmount(value, locale);
  const reviewReason = (kind: string) => (i18n.exists(`deposit.qr.reviewReason.${kind}`) ? t(`deposit.qr.reviewReason.${kind}`) : t('deposit.qr.reviewReason.other'));

  // The other QR ended meanwhile (expired, paid, cancelled): nothing to ask any more.
  const nothingToReplace = replaces === null;
  useEffect(() => {
    if (nothingToReplace) dispatch(qrReplaceDropped());
  }, [dispatch, nothingToReplace]);
  // The question is the panel's: it goes with it (another bank chosen, the modal closed).
  useEffect(() => () => void dispatch(qrReplaceDropped()), [dispatch]);
  // Asking: focus on "Keep it" (the safe answer). Kept: back to the create button.
  useEffect(() => {
    if (asking) keepButton.current?.focus();
    else if (refocusCreate.current) createButton.current?.focus();
    refocusCreate.current = false;
  }, [asking]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (decision === 'create') {
      setTooLow(false);
      if (replaces) dispatch(qrReplaceAsked({ bank, amount }));
      else onCreate(amount);
    } else {
      // Spec §5: below the minimum the create action does nothing; the field says why.
      setTooLow(true);
      input.current?.focus();
    }
  };

  // Issue 12: a paid QR ends on its receipt; its time is when the payment was seen here (the statement's is the
  // server's credit time), its reference the QR's id (the statement line's reference too).
  const paidId = machine.status === 'paid' ? machine.qrcodeId : null;
  const paidAt = useMemo(() => (paidId ? new Date().toISOString() : ''), [paidId]);

  // One live region for the whole panel, present in every state, so each change is announced.
  const note =
    machine.status === 'paid' ? (
      <Receipt
        receipt={{ kind: 'deposit', amount: machine.amount, from: bank, to: 'WALLET', at: paidAt, reference: machine.qrcodeId, status: 'SUCCESS' }}
        note={<span data-testid="qr-paid">{t('deposit.qr.paid', { amount: baht(machine.amount) })}</span>}
        takeFocus={false}
      />
    ) : machine.status === 'review' ? (
      <p className="alert" data-testid="qr-review">
        {machine.review
          ? t('deposit.qr.reviewArrived', { paid: baht(machine.review.paid), reason: reviewReason(machine.review.kind) })
          : t('deposit.qr.review', { amount: baht(machine.amount) })}
      </p>
    ) : machine.status === 'expired' ? (
      <p className="alert" data-testid="qr-expired">
        {t('deposit.qr.expired')}
      </p>
    ) : machine.status === 'cancelled' ? (
      <p className="alert" data-testid="qr-cancelled">
        {t('deposit.qr.cancelled')}
      </p>
    ) : machine.status === 'creating' ? (
      <p className="visually-hidden">{t('deposit.qr.creating')}</p>
    ) : machine.status === 'shown' ? (
      <p className="visually-hidden">{t('deposit.qr.ready', { amount: baht(machine.qr.amount) })}</p>
    ) : null;

  return (
    <div ref={panel} tabIndex={-1} className="qr" data-testid={`qr-${bank}`} data-status={machine.status}>
      <div role="status" className="qr__status">
        {note}
      </div>
      {machine.status === 'review' && (
        <QrReviewHelp reference={machine.review?.ref || machine.qrcodeId} rejected={machine.review?.decision === 'REJECTED'} onLeave={onLeave} />
      )}
      {machine.status === 'shown' || machine.status === 'cancelling' ? (
        <div className="qr__shown">
          <QrFrame bank={bank} payeeName={payeeName}>
            <QrImage
              svg={machine.qr.svg}
              payload={machine.qr.payload}
              imageUrl={machine.qr.imageUrl}
              alt={t(machine.qr.imageUrl ? 'deposit.qr.gatewayImageAlt' : 'deposit.qr.imageAlt', { bank: bankName, amount: baht(machine.qr.amount) })}
            />
          </QrFrame>
          <p className="qr__amount">
            {t('deposit.qr.amount')}: <strong data-testid="qr-amount">{baht(machine.qr.amount)}</strong> {t('deposit.baht')}
          </p>
          <p
            className={isCountdownUrgent(secondsLeft(machine.qr.expiresAt, now)) ? 'qr__countdown qr__countdown--urgent' : 'qr__countdown'}
            data-urgent={isCountdownUrgent(secondsLeft(machine.qr.expiresAt, now))}
            data-testid="qr-countdown-line"
          >
            {t('deposit.qr.payWithin')}{' '}
            <span role="timer" aria-live="off" aria-atomic="true" data-testid="qr-countdown">
              {formatCountdown(secondsLeft(machine.qr.expiresAt, now))}
            </span>
            {isCountdownUrgent(secondsLeft(machine.qr.expiresAt, now)) && <span className="qr__hurry"> {t('deposit.qr.hurry')}</span>}
          </p>
          <p className="deposit__note">{t('deposit.qr.scanHint')}</p>
          <CreditTimeNote />
          {/* A gateway's image has no payload or SVG of ours to save or share: the player saves the image itself. */}
          {!machine.qr.imageUrl && (
            <QrSaveActions
              input={{ payload: machine.qr.payload, svg: machine.qr.svg, bank, bankName, amount: machine.qr.amount, expiresAt: machine.qr.expiresAt }}
            />
          )}
          <button
            type="button"
            className="button"
            onClick={() => onCancel(machine.qr.qrcodeId)}
            disabled={machine.status === 'cancelling'}
            aria-busy={machine.status === 'cancelling'}
            data-testid="qr-cancel"
          >
            {machine.status === 'cancelling' ? t('deposit.qr.cancelling') : t('deposit.qr.cancel')}
          </button>
        </div>
      ) : (
        <form className="qr__form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={inputId}>{t('deposit.qr.amountLabel')}</label>
            <input
              ref={input}
              id={inputId}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={text}
              onChange={(event) => {
                setText(keepAmountCharacters(event.target.value));
                setTooLow(false);
                dispatch(qrReplaceDropped());
              }}
              aria-describedby={hintId}
              aria-invalid={tooLow ? true : undefined}
              data-testid="qr-amount-input"
            />
            <p id={hintId} className={tooLow ? 'field__error' : 'field__hint'}>
              {tooLow && ambiguous ? t('wallet.ambiguousAmount', amountExample(locale)) : t('deposit.qr.minimum', { amount: baht(minimum) })}
            </p>
          </div>
          <div className="quick-picks" role="group" aria-label={t('deposit.qr.quickPicks')}>
            {QR_QUICK_PICKS[bank].map((value) => (
              <button
                key={value}
                type="button"
                className="quick-pick"
                aria-pressed={amount === value}
                onClick={() => {
                  setText(writeAmount(value * 100, locale));
                  setTooLow(false);
                  dispatch(qrReplaceDropped());
                }}
                data-testid={`qr-pick-${value}`}
              >
                {writeAmount(value * 100, locale)}
              </button>
            ))}
          </div>
          {asking && (
            <div role="alertdialog" aria-modal="false" aria-labelledby={confirmTitleId} aria-describedby={confirmTextId} className="qr__confirm" data-testid="qr-replace">
              <p id={confirmTitleId} className="qr__confirm-title">
                {t('deposit.qr.replace.title')}
              </p>
              <div id={confirmTextId}>
                <p data-testid="qr-replace-text">{t('deposit.qr.replace.text', { bank: replaces.bankName, amount: baht(replaces.amount) })}</p>
                <p>
                  {t('deposit.qr.replace.timeLeft')}{' '}
                  <span role="timer" aria-live="off" aria-atomic="true" data-testid="qr-replace-time">
                    {formatCountdown(secondsLeft(replaces.expiresAt, now))}
                  </span>
                </p>
              </div>
              <div className="qr__confirm-actions">
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => {
                    dispatch(qrReplaceConfirmed());
                    onCreate(confirming);
                  }}
                  data-testid="qr-replace-confirm"
                >
                  {t('deposit.qr.replace.confirm')}
                </button>
                <button
                  ref={keepButton}
                  type="button"
                  className="button"
                  onClick={() => {
                    refocusCreate.current = true;
                    dispatch(qrReplaceKept());
                  }}
                  data-testid="qr-replace-keep"
                >
                  {t('deposit.qr.replace.keep')}
                </button>
              </div>
            </div>
          )}
          <button
            ref={createButton}
            type="submit"
            className="button button--primary"
            hidden={asking}
            disabled={decision === 'disabled' || machine.status === 'creating'}
            aria-busy={machine.status === 'creating'}
            data-testid="qr-create"
          >
            {machine.status === 'creating' ? t('deposit.qr.creating') : t('deposit.qr.create')}
          </button>
        </form>
      )}
    </div>
  );
}
