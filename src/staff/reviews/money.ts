import { standardLanguageTag, type Locale } from '../../lib/locale';

/** Money as the console's language writes it, with the currency's symbol (THB ฿, LAK ₭). */
export function formatMoney(locale: Locale, currency: string, amount: number): string {
  try {
    return new Intl.NumberFormat(standardLanguageTag(locale), { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(standardLanguageTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}
