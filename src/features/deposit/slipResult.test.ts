import en from '../../../locales/en.json';
import la from '../../../locales/la.json';
import th from '../../../locales/th.json';
import { slipAdviceKey, slipUploadResult } from './slipResult';

/** Issue 40: a slip held for staff is told as being checked, not only as refused; other refusals stay refusals. */
const refusedWith = (message: string) => ({ error: { status: 422, data: { message } } });
const exists = (key: string) => key === 'slipReasons.INVALID_SLIP';

describe('slipUploadResult', () => {
  it('NOT_MATCH and DEPOSIT_LIMIT are held for review', () => {
    expect(slipUploadResult(refusedWith('NOT_MATCH'), exists)).toEqual({ kind: 'review', code: 'NOT_MATCH' });
    expect(slipUploadResult(refusedWith('DEPOSIT_LIMIT'), exists)).toEqual({ kind: 'review', code: 'DEPOSIT_LIMIT' });
  });

  it('anything else is refused with its reason', () => {
    expect(slipUploadResult(refusedWith('INVALID_SLIP'), exists)).toEqual({ kind: 'refused', code: 'INVALID_SLIP', textKey: 'slipReasons.INVALID_SLIP' });
  });
});

describe('a refused slip says what to do next, per reason (issue 40 item 9)', () => {
  const has = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], en) !== undefined;

  it('a reason with its own advice gets it; any other the general advice', () => {
    expect(slipAdviceKey('SLIP_REFNO_DUPLICATED', has)).toBe('slipAdvice.SLIP_REFNO_DUPLICATED');
    expect(slipAdviceKey('DEST_ACC_INVALID', has)).toBe('slipAdvice.DEST_ACC_INVALID');
    expect(slipAdviceKey('SOMETHING_NEW', has)).toBe('slipAdvice.default');
  });

  it('every refusal reason of the slip table has advice in th, la and en, and no two reasons share one', () => {
    const reasons = Object.keys(en.slipReasons).filter((code) => code !== 'NOT_MATCH'); // NOT_MATCH is held for review
    for (const locale of [th, la, en]) {
      const advice = locale.slipAdvice as Record<string, string>;
      for (const code of [...reasons, 'default']) expect([code, typeof advice[code]]).toEqual([code, 'string']);
    }
    expect(en.slipAdvice.SLIP_REFNO_DUPLICATED).not.toBe(en.slipAdvice.DEST_ACC_INVALID);
  });
});
