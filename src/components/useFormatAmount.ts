import { useCallback } from 'react';

import { useAppSelector } from '../core/hooks';
import { selectLocale } from '../core/prefs';
import { formatAmount } from '../lib/format';

/** Amounts in the player's language: at least 2 decimals, or a dash when not a number (lib/format.ts). */
export function useFormatAmount(): (value: unknown) => string {
  const locale = useAppSelector(selectLocale);
  return useCallback((value: unknown) => formatAmount(value, locale), [locale]);
}
