/**
 * The chat's day separator, the one display format that needs day and month names in the player's language: moment
 * and its locales (app/momentLocale.ts loads th and lo), kept out of lib/format.ts so screens without it do not
 * download moment.
 */
import moment from 'moment';

import { parseDate, type DateInput } from './format';
import { standardLanguageTag, type Locale } from './locale';

/** Chat day separator: ddd, DD MMM YYYY, with day and month names in the player's language. */
export function formatChatDay(value: DateInput, locale: Locale = 'en'): string {
  const date = parseDate(value);
  return date ? moment(date).locale(standardLanguageTag(locale)).format('ddd, DD MMM YYYY') : '-';
}
