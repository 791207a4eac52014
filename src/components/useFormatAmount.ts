import { useCallback, useEffect } from 'react';

import { useAppSelector } from '../app/hooks';
import { selectLocale } from '../app/prefs';
import { formatAmount, prepareAmountFormat } from '../lib/format';

/**
 * Amounts in the player's language: at least 2 decimals, or a dash when not a number. The language's formatter is
 * made in a task of its own after the first render (prepareAmountFormat), before the amounts usually arrive, so
 * the render that shows them does not pay for it.
 */
export function useFormatAmount(): (value: unknown) => string {
  const locale = useAppSelector(selectLocale);
  useEffect(() => {
    const timer = setTimeout(() => prepareAmountFormat(locale), 0);
    return () => clearTimeout(timer);
  }, [locale]);
  return useCallback((value: unknown) => formatAmount(value, locale), [locale]);
}
