import { slipUploadResult } from './slipResult';

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
