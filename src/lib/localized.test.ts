import { localized } from './localized';

describe('localized operator text', () => {
  it("takes the player's language", () => {
    expect(localized({ th: 'ไทย', la: 'ລາວ', en: 'English' }, 'la')).toBe('ລາວ');
  });

  it('falls back to English, then Thai, then Lao when a language is empty or missing', () => {
    expect(localized({ th: 'ไทย', la: ' ', en: 'English' }, 'la')).toBe('English');
    expect(localized({ th: 'ไทย', la: 'ລາວ' }, 'en')).toBe('ไทย');
    expect(localized({ la: 'ລາວ' }, 'th')).toBe('ລາວ');
  });

  it('is empty for nothing', () => {
    expect(localized(null, 'en')).toBe('');
    expect(localized({}, 'en')).toBe('');
  });
});
