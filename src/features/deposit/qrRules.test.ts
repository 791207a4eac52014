import { formatCountdown, isCountdownUrgent, parseAmount, qrCreateDecision, QR_MINIMUM, QR_QUICK_PICKS, secondsLeft } from './qrRules';

describe('QR quick picks and minimums (spec §5, §9)', () => {
  it('offers the quick picks of each bank', () => {
    expect(QR_QUICK_PICKS).toEqual({
      KBANK: [10, 20, 50, 100, 500, 1000],
      WW: [100, 200, 300, 500, 1000],
      E2P: [50, 100, 200, 500, 1000],
    });
  });

  it('has the minimums 1 (KBANK), 100 (WW) and 50 (E2P), and every quick pick meets its bank minimum', () => {
    expect(QR_MINIMUM).toEqual({ KBANK: 1, WW: 100, E2P: 50 });
    for (const bank of ['KBANK', 'WW', 'E2P'] as const) {
      for (const pick of QR_QUICK_PICKS[bank]) expect(qrCreateDecision(bank, pick)).toBe('create');
    }
  });

  it.each([
    // KBANK: disabled at 0 or below (and with nothing typed), does nothing below 1
    ['KBANK', NaN, 'disabled'],
    ['KBANK', 0, 'disabled'],
    ['KBANK', -5, 'disabled'],
    ['KBANK', 0.5, 'ignored'],
    ['KBANK', 1, 'create'],
    ['KBANK', 10.25, 'create'],
    // WW: at least 100
    ['WW', 0, 'ignored'],
    ['WW', 99.99, 'ignored'],
    ['WW', 100, 'create'],
    // E2P: at least 50
    ['E2P', NaN, 'ignored'],
    ['E2P', 49, 'ignored'],
    ['E2P', 50, 'create'],
  ] as const)('%s with %p -> %s', (bank, amount, decision) => {
    expect(qrCreateDecision(bank, amount)).toBe(decision);
  });

  it("uses the server's minimum when given (deposit lookup qrMinimums): below it sends nothing; KBANK at 0 stays disabled", () => {
    expect(qrCreateDecision('KBANK', 19.99, 20)).toBe('ignored');
    expect(qrCreateDecision('KBANK', 20, 20)).toBe('create');
    expect(qrCreateDecision('KBANK', 0, 20)).toBe('disabled');
    expect(qrCreateDecision('WW', 80, 75)).toBe('create');
    // Never below the absolute 1 baht, whatever the setting says.
    expect(qrCreateDecision('E2P', 0.5, 0)).toBe('ignored');
  });

  it('reads the amount field (commas allowed, empty is not a number)', () => {
    expect(parseAmount('1,000', 'th')).toBe(1000);
    expect(parseAmount(' 20.5 ', 'en')).toBe(20.5);
    expect(parseAmount('', 'th')).toBeNaN();
    expect(parseAmount('abc', 'th')).toBeNaN();
  });

  it('reads it in Lao marks (issue 40): 150,50 is 150.5, 1.000 a thousand, 150.50 is not read', () => {
    expect(parseAmount('150,50', 'la')).toBe(150.5);
    expect(parseAmount('1.000', 'la')).toBe(1000);
    expect(parseAmount('150.50', 'la')).toBeNaN();
  });
});

describe('countdown', () => {
  it('formats mm:ss', () => {
    expect(formatCountdown(299)).toBe('04:59');
    expect(formatCountdown(60)).toBe('01:00');
    expect(formatCountdown(5)).toBe('00:05');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });

  it('counts whole seconds left, rounding up, never below 0', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
});

describe('the countdown turns urgent in its last minute (issue 40 item 9)', () => {
  it('from 60 seconds left down to 0, not before', () => {
    expect(isCountdownUrgent(299)).toBe(false);
    expect(isCountdownUrgent(61)).toBe(false);
    expect(isCountdownUrgent(60)).toBe(true);
    expect(isCountdownUrgent(1)).toBe(true);
    expect(isCountdownUrgent(0)).toBe(true);
  });
});
