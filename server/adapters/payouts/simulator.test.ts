import { PayoutSimulator } from './simulator';

const request = (withdrawalId: string, amount = 10_000) => ({ withdrawalId, amount, currency: 'THB', bankCode: 'KBANK', bankAccountNo: '1234567890', bankAccountName: 'DEMO PLAYER' });

test('a payout whose result was not delivered stays open and is reported again, with the same outcome', async () => {
  jest.useFakeTimers();
  try {
    const sim = new PayoutSimulator({ delayMs: 1_000, failureRate: 0, rejectRate: 0 });
    const delivered: Array<[string, boolean]> = [];
    let down = true;
    sim.setSettledHandler(async (id, ok) => {
      if (down) throw new Error('webhook answered 503');
      delivered.push([id, ok]);
    });
    expect(await sim.requestPayout(request('w1'))).toEqual({ status: 'accepted' });
    await expect(sim.settle('w1', true)).rejects.toThrow('503');
    expect(sim.pending().map((p) => p.withdrawalId)).toEqual(['w1']);
    down = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(delivered).toEqual([['w1', true]]);
    expect(sim.pending()).toEqual([]);
    expect(await sim.settle('w1', false)).toBe(false); // settled once, never again
  } finally {
    jest.useRealTimers();
  }
});
