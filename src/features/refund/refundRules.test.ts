import { selectRefundOffer } from './refundRules';

describe('refund offer (the receive rules)', () => {
  it('open: something to receive and no active bonus', () => {
    expect(selectRefundOffer({ result: true, bonus: false, refundAmount: 125.5 })).toEqual({ kind: 'open', amount: 125.5 });
  });

  it('blocked: something to receive while a bonus is active (receive disabled, two condition lines)', () => {
    expect(selectRefundOffer({ result: true, bonus: true, refundAmount: 125.5 })).toEqual({ kind: 'blocked', amount: 125.5 });
  });

  it('nothing: the check finds no refund, or the amount is not above 0 baht (spec §5 REFUND_MINIMUM)', () => {
    expect(selectRefundOffer({ result: false, bonus: false, refundAmount: 0 })).toEqual({ kind: 'nothing' });
    expect(selectRefundOffer({ result: false, bonus: true, refundAmount: 0 })).toEqual({ kind: 'nothing' });
    expect(selectRefundOffer({ result: true, bonus: false, refundAmount: 0 })).toEqual({ kind: 'nothing' });
    expect(selectRefundOffer({ result: true, bonus: false, refundAmount: -3 })).toEqual({ kind: 'nothing' });
    expect(selectRefundOffer({ result: true, bonus: false, refundAmount: Number.NaN })).toEqual({ kind: 'nothing' });
  });
});
