import en from '../../locales/en.json';
import la from '../../locales/la.json';
import th from '../../locales/th.json';
import { ERROR_CODES, PROJECT_ERROR_CODES, SLIP_REASON_CODES, WALLET_ERROR_CODES } from '../../shared/errorCodes';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const locales = { th: flatten(th as Tree), la: flatten(la as Tree), en: flatten(en as Tree) };
const THAI = /[\u0E00-\u0E7F]/;
const LAO = /[\u0E80-\u0EFF]/;

describe('locale files', () => {
  it.each([
    ['th', 'la'],
    ['th', 'en'],
    ['la', 'en'],
  ] as const)('%s and %s have exactly the same keys', (a, b) => {
    const keysA = Object.keys(locales[a]).sort();
    const keysB = Object.keys(locales[b]).sort();
    expect(keysA.filter((key) => !(key in locales[b]))).toEqual([]);
    expect(keysB.filter((key) => !(key in locales[a]))).toEqual([]);
  });

  it.each(['th', 'la', 'en'] as const)('%s translates every error code of spec §8, the product\'s own codes and every slip reason', (lng) => {
    const missing = [
      ...ERROR_CODES.map((code) => `errors.${code}`),
      ...PROJECT_ERROR_CODES.map((code) => `errors.${code}`),
      ...SLIP_REASON_CODES.map((code) => `slipReasons.${code}`),
      ...WALLET_ERROR_CODES.map((code) => `wallet.errors.${code}`),
    ].filter((key) => !locales[lng][key]?.trim());
    expect(missing).toEqual([]);
  });

  it('lists the catalogue of spec §8 in full', () => {
    expect(ERROR_CODES).toHaveLength(76);
    expect(SLIP_REASON_CODES).toHaveLength(11);
  });

  it('has no empty texts', () => {
    for (const [lng, texts] of Object.entries(locales)) {
      expect([lng, Object.entries(texts).filter(([, text]) => text.trim() === '')]).toEqual([lng, []]);
    }
  });

  it('writes Thai in Thai script and Lao in Lao script, never mixed up', () => {
    for (const [key, text] of Object.entries(locales.th)) {
      expect([key, LAO.test(text)]).toEqual([key, false]);
    }
    for (const [key, text] of Object.entries(locales.la)) {
      expect([key, THAI.test(text)]).toEqual([key, false]);
    }
    const translated = (lng: 'th' | 'la', script: RegExp) =>
      Object.entries(locales[lng]).filter(([, text]) => script.test(text)).length / Object.keys(locales[lng]).length;
    expect(translated('th', THAI)).toBeGreaterThan(0.95);
    expect(translated('la', LAO)).toBeGreaterThan(0.95);
  });

  it('keeps the interpolation placeholders of the English text', () => {
    const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}/g) ?? []).sort().join();
    for (const [key, text] of Object.entries(locales.en)) {
      expect([key, placeholders(locales.th[key])]).toEqual([key, placeholders(text)]);
      expect([key, placeholders(locales.la[key])]).toEqual([key, placeholders(text)]);
    }
  });
});
