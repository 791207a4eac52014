import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { classifyError } from '../../app/apiErrors';
import { useAppSelector } from '../../app/hooks';
import { errorText } from '../../app/notify';
import type { Limit, LimitKind, LimitsAnswer } from '../../app/playLimits';
import { selectLocale } from '../../app/prefs';
import { TextField } from '../../components/FormField';
import { amountExample, writeAmount } from '../../lib/amountInput';
import { formatDateTime } from '../../lib/format';
import { useSetLimitMutation } from './limitsApi';
import { limitChange, MAX_MONEY_LIMIT, parseLimitInput, type LimitChange } from './rules';
import { useLimitValueText } from './texts';

const WINDOW_KEY: Record<string, string> = {
  depositDay: 'limits.window.day',
  depositWeek: 'limits.window.week',
  depositMonth: 'limits.window.month',
  lossDay: 'limits.window.day',
  lossWeek: 'limits.window.week',
  lossMonth: 'limits.window.month',
};

type Outcome = { kind: 'saved' | 'scheduled'; at?: string } | { kind: 'error'; text: string } | null;

/**
 * One limit: its value, what was used in its window (deposit and loss limits), a change waiting its 24 hours,
 * and a form to set a new value or remove it. What saving will do (at once, or in 24 hours) is said before the
 * player saves; a refusal is shown under the form, translated.
 */
export function LimitRow({ kind, limit, usage }: { kind: LimitKind; limit: Limit; usage: number | null }) {
  const { t } = useTranslation();
  const valueText = useLimitValueText();
  const locale = useAppSelector(selectLocale);
  // The highest money limit, written as this language writes amounts (10.000.000 in Lao).
  const max = writeAmount(MAX_MONEY_LIMIT * 100, locale);
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [save, saving] = useSetLimitMutation();
  const id = `limit-${kind}`;
  const parsed = parseLimitInput(kind, text, locale);
  const change: LimitChange | null = parsed.ok ? limitChange(limit, parsed.value) : null;

  const send = (value: number | null) => {
    if (saving.isLoading) return;
    setOutcome(null);
    save({ kind, value })
      .unwrap()
      .then(
        (answer: LimitsAnswer) => {
          const pending = answer?.limits?.[kind]?.pending;
          setOutcome(pending ? { kind: 'scheduled', at: pending.effectiveAt } : { kind: 'saved' });
          setText('');
        },
        (error: unknown) => {
          const failure = classifyError(error as Parameters<typeof classifyError>[0]);
          // A session or 'gone' outcome is handled app-wide (the player is on the way elsewhere).
          setOutcome(failure.kind === 'message' ? { kind: 'error', text: errorText(failure.code) } : null);
        },
      );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!parsed.ok) {
      setFieldError(
        parsed.error === 'ambiguous' ? t('wallet.ambiguousAmount', amountExample(locale)) : t(`limits.invalid.${parsed.error}`, { max }),
      );
      return;
    }
    setFieldError(null);
    send(parsed.value);
  };

  const label = t(`limits.kinds.${kind}`);
  return (
    <li className="limit" data-testid={id}>
      <h3 className="limit__name" id={`${id}-name`}>
        {label}
      </h3>
      <p className="limit__value" data-testid={`${id}-value`}>
        {limit.value === null ? t('limits.noLimit') : t('limits.current', { value: valueText(kind, limit.value) })}
      </p>
      {usage !== null && (
        <p className="limit__usage muted" data-testid={`${id}-usage`}>
          {t('limits.usage', { used: valueText(kind, usage), window: t(WINDOW_KEY[kind]) })}
        </p>
      )}
      {limit.pending && (
        <p className="limit__pending" data-testid={`${id}-pending`}>
          {limit.pending.value === null
            ? t('limits.pendingRemoval', { time: formatDateTime(limit.pending.effectiveAt) })
            : t('limits.pendingChange', { value: valueText(kind, limit.pending.value), time: formatDateTime(limit.pending.effectiveAt) })}
        </p>
      )}
      <form className="limit__form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-name`}>
        <TextField
          label={t(kind === 'sessionMinutes' ? 'limits.newMinutes' : 'limits.newAmount', { name: label })}
          inputMode={kind === 'sessionMinutes' ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setFieldError(null);
          }}
          hint={t(kind === 'sessionMinutes' ? 'limits.minutesHint' : 'limits.amountHint', { max })}
          error={fieldError}
          data-testid={`${id}-input`}
        />
        <p className="limit__notice" aria-live="polite" data-testid={`${id}-notice`}>
          {change === 'delayed' && t('limits.delayedNotice')}
          {change === 'now' && t('limits.nowNotice')}
          {change === 'cancelsPending' && t('limits.cancelNotice')}
        </p>
        <div className="limits-actions">
          <button type="submit" className="button button--primary" aria-busy={saving.isLoading} aria-label={t('limits.saveOf', { name: label })} data-testid={`${id}-save`}>
            {t('limits.save')}
          </button>
          {limit.value !== null && (
            <button
              type="button"
              className="button"
              onClick={() => send(null)}
              aria-label={t('limits.removeOf', { name: label })}
              aria-describedby={`${id}-remove-note`}
              aria-busy={saving.isLoading}
              data-testid={`${id}-remove`}
            >
              {t('limits.remove')}
            </button>
          )}
        </div>
        {limit.value !== null && (
          <p className="muted limit__note" id={`${id}-remove-note`}>
            {t('limits.removeNote')}
          </p>
        )}
        <p className="limit__outcome" role="status" data-testid={`${id}-status`}>
          {outcome?.kind === 'saved' && t('limits.saved')}
          {outcome?.kind === 'scheduled' && t('limits.scheduled', { time: formatDateTime(outcome.at ?? '') })}
        </p>
        <p className="form__error" role="alert" data-testid={`${id}-error`}>
          {outcome?.kind === 'error' ? outcome.text : ''}
        </p>
      </form>
    </li>
  );
}
