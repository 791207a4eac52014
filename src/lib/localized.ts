import type { Locale } from './locale';

/** An operator's text in the three languages (bonus names, notices, banner captions, refund info). */
export type LocalizedText = Partial<Record<Locale, string>>;

/**
 * The text in the player's language. An operator may leave a language empty; then another language is better
 * than nothing (English first, then Thai, then Lao).
 */
export function localized(text: LocalizedText | null | undefined, locale: Locale): string {
  if (!text) return '';
  for (const candidate of [text[locale], text.en, text.th, text.la]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  return '';
}
