/**
 * Texts and banners operators write in JSON files (bonus definitions, refund, invite and wheel settings): every
 * text in th, la and en (HTML allowed; the SPA sanitizes it), banners `[{image, html}]`. The checks collect every
 * problem into `errors` so a file is reported as a whole.
 */
export interface Localized { th: string; la: string; en: string }
export interface Banner { image: string; html: Localized }

export const LANGS = ['th', 'la', 'en'] as const;

/** Checks `{th, la, en}` (each non-empty, at most `maxLength`); undefined when absent (an error if required). */
export function parseLocalized(v: unknown, field: string, errors: string[], required: boolean, maxLength = 20_000): Localized | undefined {
  if (v === undefined) {
    if (required) errors.push(`${field} is required ({th, la, en})`);
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    errors.push(`${field} must be an object {th, la, en}`);
    return undefined;
  }
  const o = v as Record<string, unknown>;
  for (const l of LANGS) {
    if (typeof o[l] !== 'string' || !(o[l] as string).trim()) errors.push(`${field}.${l} must be a non-empty string`);
    else if ((o[l] as string).length > maxLength) errors.push(`${field}.${l} is longer than ${maxLength.toLocaleString('en-US')} characters`);
  }
  const extra = Object.keys(o).filter((k) => !(LANGS as readonly string[]).includes(k));
  if (extra.length) errors.push(`${field} has unknown keys: ${extra.join(', ')}`);
  return { th: String(o.th ?? ''), la: String(o.la ?? ''), en: String(o.en ?? '') };
}

/** Checks a banner list (absent: none). */
export function parseBanners(v: unknown, errors: string[], field = 'banners'): Banner[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    errors.push(`${field} must be an array of {image, html}`);
    return [];
  }
  return v.map((b, i) => {
    const o = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
    if (typeof o.image !== 'string' || !o.image.trim() || o.image.length > 2048) errors.push(`${field}[${i}].image must be a URL or path`);
    const html = parseLocalized(o.html, `${field}[${i}].html`, errors, true);
    return { image: String(o.image ?? ''), html: html ?? { th: '', la: '', en: '' } };
  });
}
