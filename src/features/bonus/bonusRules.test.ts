import { fillNotice, normalizePromotionCode, turnoverProgress } from './bonusRules';

describe('bonus notice', () => {
  it('replaces every %percentFail% with the fail percentage', () => {
    expect(fillNotice('<p>Fails at %percentFail%% of the start.</p><p>(%percentFail%)</p>', 30)).toBe('<p>Fails at 30% of the start.</p><p>(30)</p>');
  });

  it('leaves a notice without the placeholder as it is, and other percent words alone', () => {
    expect(fillNotice('<p>No placeholder, 100% fun, %percent%</p>', 30)).toBe('<p>No placeholder, 100% fun, %percent%</p>');
  });

  it('shows a dash when the percentage is not a number', () => {
    expect(fillNotice('%percentFail%%', Number.NaN)).toBe('-%');
  });
});

describe('promotion code', () => {
  it('is trimmed and upper-cased', () => {
    expect(normalizePromotionCode('  welcome50 ')).toBe('WELCOME50');
    expect(normalizePromotionCode('   ')).toBe('');
  });
});

describe('turnover progress', () => {
  it('is the turnover done against the target, in whole percent rounded down', () => {
    expect(turnoverProgress({ turnover: 1250, target: 5000 })).toEqual({ done: 1250, target: 5000, percent: 25 });
    expect(turnoverProgress({ turnover: 4999.99, target: 5000 })).toEqual({ done: 4999.99, target: 5000, percent: 99 });
    expect(turnoverProgress({ turnover: 0.07, target: 0.1 })).toEqual({ done: 0.07, target: 0.1, percent: 70 });
  });

  it('stops at the target and never goes below zero', () => {
    expect(turnoverProgress({ turnover: 6000, target: 5000 })).toEqual({ done: 5000, target: 5000, percent: 100 });
    expect(turnoverProgress({ turnover: -5, target: 5000 })).toEqual({ done: 0, target: 5000, percent: 0 });
  });

  it('counts a bonus without a turnover target as done', () => {
    expect(turnoverProgress({ turnover: 0, target: 0 })).toEqual({ done: 0, target: 0, percent: 100 });
  });
});
