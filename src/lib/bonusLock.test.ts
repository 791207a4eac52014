import { bonusLock, lockOnReceiving } from './bonusLock';

const active = (progress: { amount: number; turnover: number; target: number }) => ({ status: true, progress });

describe('bonusLock (the active bonus: what remains to wager, what cancelling takes back)', () => {
  it('is null without an active bonus', () => {
    expect(bonusLock(undefined, 100)).toBeNull();
    expect(bonusLock({ status: false, progress: null }, 100)).toBeNull();
    expect(bonusLock({ status: true, progress: null }, 100)).toBeNull();
  });

  it('says the turnover left and the bonus taken back, in satang so 0.1 + 0.2 stays 0.3', () => {
    expect(bonusLock(active({ amount: 250, turnover: 1250, target: 5000 }), 1000)).toEqual({ done: 1250, target: 5000, remaining: 3750, percent: 25, takesBack: 250 });
    expect(bonusLock(active({ amount: 0.3, turnover: 0.1, target: 0.3 }), 1)).toEqual({ done: 0.1, target: 0.3, remaining: 0.2, percent: 33, takesBack: 0.3 });
  });

  it('takes back no more than the wallet holds (money at a game is not touched)', () => {
    expect(bonusLock(active({ amount: 250, turnover: 0, target: 5000 }), 80.5)?.takesBack).toBe(80.5);
    expect(bonusLock(active({ amount: 250, turnover: 0, target: 5000 }), undefined)?.takesBack).toBe(0);
  });

  it('never counts more than the target, nor says 100% before the target is reached', () => {
    expect(bonusLock(active({ amount: 1, turnover: 6000, target: 5000 }), 0)).toMatchObject({ done: 5000, remaining: 0, percent: 100 });
    expect(bonusLock(active({ amount: 1, turnover: 4999.99, target: 5000 }), 0)).toMatchObject({ remaining: 0.01, percent: 99 });
  });
});

describe('lockOnReceiving (what a bonus would lock, as the server computes it at activation)', () => {
  it('is percent of the wallet rounded down to the satang, capped; the target (wallet + bonus) x multiple rounded up', () => {
    expect(lockOnReceiving({ percent: 10, cap: 500, turnoverMultiple: 0.1 }, 1000)).toEqual({ bonus: 100, target: 110 });
    expect(lockOnReceiving({ percent: 50, cap: 300, turnoverMultiple: 5 }, 1000)).toEqual({ bonus: 300, target: 6500 });
    expect(lockOnReceiving({ percent: 5, cap: 200, turnoverMultiple: 2 }, 0.19)).toEqual({ bonus: 0, target: 0.38 });
    expect(lockOnReceiving({ percent: 3.33, cap: 200, turnoverMultiple: 1.01 }, 10.01)).toEqual({ bonus: 0.33, target: 10.45 });
  });

  it('is null when the terms are not numbers', () => {
    expect(lockOnReceiving({ percent: NaN, cap: 1, turnoverMultiple: 1 }, 10)).toBeNull();
  });
});
