import { initialRefundFlow, receiveAnswered, receiveRefused, receiveStarted, refundFlowReducer, selectRefundChanged, type RefundFlow } from './refundFlow';
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

describe('refund receive flow: transition table', () => {
  const ready: RefundFlow = initialRefundFlow;
  const receiving: RefundFlow = { status: 'receiving', requestId: 'r1' };
  const received: RefundFlow = { status: 'received', amount: 80 };

  it('ready -> receiving -> received (the close flag), or back to ready when refused', () => {
    expect(refundFlowReducer(ready, receiveStarted({ requestId: 'r1' }))).toEqual(receiving);
    expect(refundFlowReducer(receiving, receiveAnswered({ requestId: 'r1', amount: 80 }))).toEqual(received);
    expect(refundFlowReducer(receiving, receiveRefused({ requestId: 'r1' }))).toEqual(ready);
    expect([ready, receiving, received].map(selectRefundChanged)).toEqual([false, false, true]);
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, RefundFlow, Parameters<typeof refundFlowReducer>[1]]>([
      ['a second receive while receiving', receiving, receiveStarted({ requestId: 'r2' })],
      ['a receive after receiving', received, receiveStarted({ requestId: 'r2' })],
      ["another request's answer", receiving, receiveAnswered({ requestId: 'r0', amount: 1 })],
      ["another request's refusal", receiving, receiveRefused({ requestId: 'r0' })],
      ['an answer when ready', ready, receiveAnswered({ requestId: 'r1', amount: 1 })],
      ['a refusal when ready', ready, receiveRefused({ requestId: 'r1' })],
      ['a refusal after receiving', received, receiveRefused({ requestId: 'r1' })],
      ['an answer after receiving', received, receiveAnswered({ requestId: 'r1', amount: 1 })],
    ])('%s', (_name, from, event) => {
      expect(refundFlowReducer(from, event)).toBe(from);
    });
  });
});
