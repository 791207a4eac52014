import { applyLocale } from './i18n';

/** Counts writes of document.cookie (jsdom's own setter still stores them). */
function countCookieWrites() {
  let proto = Object.getPrototypeOf(document) as object;
  while (!Object.getOwnPropertyDescriptor(proto, 'cookie')) proto = Object.getPrototypeOf(proto) as object;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie')!;
  const writes: string[] = [];
  const spy = jest.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    descriptor.set!.call(document, value);
  });
  return { writes, restore: () => spy.mockRestore() };
}

describe('applyLocale: <html lang> and the language cookie', () => {
  it('writes the cookie only when the language changes (a synchronous call to the browser in Chromium)', async () => {
    const { writes, restore } = countCookieWrites();
    try {
      // The server drew the page in Thai: its cookie already says so.
      document.cookie = 'lang=th; path=/';
      writes.length = 0;
      await applyLocale('th');
      expect(document.documentElement.lang).toBe('th');
      // The app applies the stored language again after its first render (LocaleSync).
      await applyLocale('th');
      expect(writes).toEqual([]);

      await applyLocale('la');
      expect(document.documentElement.lang).toBe('lo');
      expect(writes).toEqual(['lang=la; path=/; max-age=31536000; samesite=lax']);
      await applyLocale('la');
      await applyLocale('en');
      expect(writes).toHaveLength(2);
      expect(document.cookie).toContain('lang=en');
      expect(document.documentElement.lang).toBe('en');
    } finally {
      restore();
    }
  });
});
