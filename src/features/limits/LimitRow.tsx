import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import type { Limit, LimitKind } from '../../core/playLimits';
import { selectLocale } from '../../core/prefs';
import { TextField } from '../../components/FormField';
import { writeAmount } from '../../lib/amountInput';
import { formatDateTime } from '../../lib/format';
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

export type Outcome = { kind: 'saved' | 'scheduled'; at?: string } | { kind: 'error'; text: string } | null;

interface Props {
  kind: LimitKind;
  limit: Limit;
  usage: number | null;
  /** The new value as typed; its group's form saves every filled row at once (issue 40 item 11). */
  text: string;
  onText: (text: string) => void;
  fieldError: string | null;
  outcome: Outcome;
  busy: boolean;
  onRemove: () => void;
}

/**
 * One limit inside its group's form: its value, what was used in its window (deposit and loss limits), a change
 * waiting its 24 hours, the field for a new value and a remove button. What saving will do (at once, or in 24
 * hours) is said before the player saves; this row's outcome or refusal is shown under it, translated.
 */
export function LimitRow({ kind, limit, usage, text, onText, fieldError, outcome, busy, onRemove }: Props) {
  const { t } = useTranslation();
  const valueText = useLimitValueText();
  const locale = useAppSelector(selectLocale);
  // The highest money limit, written as this language writes amounts (10.000.000 in Lao).
  const max = writeAmount(MAX_MONEY_LIMIT * 100, locale);
  const id = `limit-${kind}`;
  const parsed = parseLimitInput(kind, text, locale);
  const change: LimitChange | null = parsed.ok ? limitChange(limit, parsed.value) : null;
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
      <TextField
        label={t(kind === 'sessionMinutes' ? 'limits.newMinutes' : 'limits.newAmount', { name: label })}
        inputMode={kind === 'sessionMinutes' ? 'numeric' : 'decimal'}
        autoComplete="off"
        value={text}
        onChange={(event) => onText(event.target.value)}
        hint={t(kind === 'sessionMinutes' ? 'limits.minutesHint' : 'limits.amountHint', { max })}
        error={fieldError}
        data-testid={`${id}-input`}
      />
      <p className="limit__notice" aria-live="polite" data-testid={`${id}-notice`}>
        {change === 'delayed' && t('limits.delayedNotice')}
        {change === 'now' && t('limits.nowNotice')}
        {change === 'cancelsPending' && t('limits.cancelNotice')}
      </p>
      {limit.value !== null && (
        <div className="limits-actions">
          <button
            type="button"
            className="button"
            onClick={onRemove}
            aria-label={t('limits.removeOf', { name: label })}
            aria-describedby={`${id}-remove-note`}
            aria-busy={busy}
            data-testid={`${id}-remove`}
          >
            {t('limits.remove')}
          </button>
        </div>
      )}
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
    </li>
  );
}
