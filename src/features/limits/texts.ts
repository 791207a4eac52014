import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { LIMIT_KINDS, type LimitKind } from '../../core/playLimits';
import { useFormatAmount } from '../../components/useFormatAmount';
import { formatDateTime } from '../../lib/format';
import type { LimitsHistoryItem } from './limitsApi';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A limit's value as the player reads it: baht for money limits, minutes for the session limit. */
export function useLimitValueText(): (kind: LimitKind | string, value: number | null) => string {
  const { t } = useTranslation();
  const format = useFormatAmount();
  return useCallback(
    (kind, value) => {
      if (value === null) return t('limits.noLimitValue');
      return kind === 'sessionMinutes' ? t('limits.minutesValue', { count: value }) : t('limits.bahtValue', { amount: format(value) });
    },
    [t, format],
  );
}

const isKind = (kind: unknown): kind is LimitKind => typeof kind === 'string' && (LIMIT_KINDS as readonly string[]).includes(kind);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The known audit actions (GET /api/limits/history); another one shows as its name. */
export const HISTORY_ACTIONS = [
  'LIMIT_SET',
  'LIMIT_RAISE_SCHEDULED',
  'LIMIT_REMOVAL_SCHEDULED',
  'LIMIT_PENDING_CANCELLED',
  'REALITY_INTERVAL',
  'TIMEOUT',
  'EXCLUSION',
] as const;

/** One audit line in the player's language, its detail (kind, value, previous, dates, period, minutes) filled in. */
export function historyText(item: LimitsHistoryItem, t: Translate, valueText: (kind: string, value: number | null) => string): string {
  if (!(HISTORY_ACTIONS as readonly string[]).includes(item.action)) return item.action;
  const detail = item.detail ?? {};
  const kind = isKind(detail.kind) ? detail.kind : null;
  const date = (value: unknown) => (typeof value === 'string' ? formatDateTime(value) : '-');
  const period = typeof detail.period === 'string' ? detail.period : '';
  return t(`limits.history.${item.action}`, {
    kind: kind ? t(`limits.kinds.${kind}`) : '-',
    value: valueText(kind ?? '', numberOrNull(detail.value)),
    previous: valueText(kind ?? '', numberOrNull(detail.previous)),
    effectiveAt: date(detail.effectiveAt),
    endsAt: date(detail.endsAt),
    period: period ? t(`limits.periods.${period}`, { defaultValue: period }) : '-',
    minutes: numberOrNull(detail.minutes) ?? '-',
  });
}
