import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode } from '../../core/apiErrors';
import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { formatAmount } from '../../lib/format';
import { useGetDepositLookupQuery, useSendGiftLinkMutation } from './depositApi';
import { encryptGiftLink, GIFT_MINIMUM_BAHT } from './giftLink';
import { serverMessageText } from './messages';
import { useKeepFocus } from './useKeepFocus';

type Outcome = { kind: 'received'; amount: number } | { kind: 'refused'; text: string } | null;

/** Spec §2 mobile-wallet link: one field, a send button disabled while it is empty, the 2-baht minimum. */
export function GiftLinkForm() {
  const { t } = useTranslation();
  // The minimum the server enforces (deposit lookup giftMinimum, issue 12); the product's default until it answers.
  const giftMinimum = useGetDepositLookupQuery(useAppSelector(selectLocale), { selectFromResult: ({ data }) => ({ min: data?.giftMinimum }) }).min ?? GIFT_MINIMUM_BAHT;
  const locale = useAppSelector(selectLocale);
  const [link, setLink] = useState('');
  const [encrypting, setEncrypting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [send, { isLoading }] = useSendGiftLinkMutation();
  const inputId = useId();
  const hintId = useId();
  const busy = encrypting || isLoading;
  const empty = link.trim() === '';
  const input = useRef<HTMLInputElement>(null);
  // After a send the field is empty again (so the button is disabled): the field takes the focus back.
  useKeepFocus(input, `${busy}:${outcome?.kind ?? ''}`);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (empty || busy) return;
    setOutcome(null);
    setEncrypting(true);
    let encrypted: string;
    try {
      encrypted = await encryptGiftLink(link);
    } catch {
      setEncrypting(false);
      setOutcome({ kind: 'refused', text: t('errors.GENERIC') });
      return;
    }
    setEncrypting(false);
    const result = await send({ link: encrypted });
    if ('data' in result && result.data) {
      setLink('');
      setOutcome({ kind: 'received', amount: Number(result.data.amount) });
    } else {
      setOutcome({ kind: 'refused', text: serverMessageText(errorCode('error' in result ? result.error : undefined)) });
    }
  };

  return (
    <form className="gift-form" onSubmit={onSubmit} noValidate data-testid="gift-form">
      <div className="field">
        <label htmlFor={inputId}>{t('deposit.gift.label')}</label>
        <input
          ref={input}
          id={inputId}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://gift.truemoney.com/campaign/?v=…"
          value={link}
          onChange={(event) => setLink(event.target.value)}
          aria-describedby={hintId}
          data-testid="gift-input"
        />
        <p id={hintId} className="field__hint">
          {t('deposit.gift.minimum', { amount: formatAmount(giftMinimum, locale) })}
        </p>
      </div>
      <button type="submit" className="button button--primary" disabled={empty || busy} aria-busy={busy} data-testid="gift-send">
        {busy ? t('deposit.gift.sending') : t('deposit.gift.send')}
      </button>
      <div role="status" aria-live="polite" data-testid="gift-status">
        {outcome?.kind === 'received' && (
          <p className="alert alert--success">{t('deposit.gift.received', { amount: formatAmount(outcome.amount, locale) })}</p>
        )}
        {outcome?.kind === 'refused' && <p className="alert alert--error">{outcome.text}</p>}
      </div>
    </form>
  );
}
