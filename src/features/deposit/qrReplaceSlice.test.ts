import { initialQrReplace, qrReplaceAsked, qrReplaceConfirmed, qrReplaceDropped, qrReplaceKept, qrReplaceReducer, type QrReplace } from './qrReplaceSlice';

const asking: QrReplace = { status: 'asking', bank: 'KBANK', amount: 300 };

describe('the QR replace question', () => {
  it.each<[string, QrReplace, { type: string }, QrReplace]>([
    ['a create while another QR is live asks first', initialQrReplace, qrReplaceAsked({ bank: 'KBANK', amount: 300 }), asking],
    ['"Cancel it and create" ends the question (the panel creates)', asking, qrReplaceConfirmed(), initialQrReplace],
    ['"Keep it" ends the question', asking, qrReplaceKept(), initialQrReplace],
    ['a changed amount, the other QR ending or the panel going drops it', asking, qrReplaceDropped(), initialQrReplace],
  ])('%s', (_name, before, action, after) => {
    expect(qrReplaceReducer(before, action)).toEqual(after);
  });

  it.each<[string, QrReplace, { type: string }]>([
    ['a second question while one is asked', asking, qrReplaceAsked({ bank: 'WW', amount: 100 })],
    ['a confirmation with nothing asked', initialQrReplace, qrReplaceConfirmed()],
    ['keeping with nothing asked', initialQrReplace, qrReplaceKept()],
    ['dropping with nothing asked', initialQrReplace, qrReplaceDropped()],
  ])('ignores %s (state unchanged)', (_name, before, action) => {
    expect(qrReplaceReducer(before, action)).toBe(before);
  });
});
