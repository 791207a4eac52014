import { render } from '@testing-library/react';

import { BankMark, bankMarkStyle } from './BankMark';

/** WCAG relative luminance contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// Every bank the seeded lists carry (registration, deposit, the Lao build) and the payment types.
const SEEDED = ['SCB', 'KBANK', 'KTB', 'TMB', 'BBL', 'GSB', 'BAY', 'BCEL', 'LDB', 'APB', 'JDB', 'WW', 'E2P'];

describe('BankMark', () => {
  it('draws initials on the bank colour, hidden from assistive technology (the name is written next to it)', () => {
    const { container } = render(<BankMark code="SCB" size={40} />);
    const mark = container.querySelector('.bank-mark')!;
    expect(mark).toHaveTextContent('SCB');
    expect(mark).toHaveAttribute('aria-hidden', 'true');
    expect(mark).toHaveStyle({ width: '40px', height: '40px', background: '#4e2e7f', color: '#fff' });
  });

  it.each(SEEDED)('has its own colour for %s with readable initials (4.5:1 or more)', (code) => {
    const style = bankMarkStyle(code);
    expect(style.text.length).toBeGreaterThan(0);
    expect(contrast(style.bg, style.fg)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives each seeded bank a different colour', () => {
    expect(new Set(SEEDED.map((code) => bankMarkStyle(code).bg)).size).toBe(SEEDED.length);
  });

  it('marks a bank it does not know by its code on a stable dark colour', () => {
    const first = bankMarkStyle('NEWBANK');
    expect(first).toEqual(bankMarkStyle('NEWBANK'));
    expect(first.text).toBe('NEW');
    expect(contrast(first.bg, first.fg)).toBeGreaterThanOrEqual(4.5);
  });
});
