/**
 * The withdrawal lock of an active bonus (issue 40), said before the player tries: while a bonus is active a
 * withdrawal is refused (BONUS_CONDITION) until its turnover reaches the target, and cancelling it takes back what
 * remains of the bonus from the wallet and the games together, at most what the player holds there (docs/bonus.md
 * "Taking the bonus back": money parked at a game is pulled back; what was lost at play is not asked for).
 * Pure functions over the wire's baht, computed in satang.
 */

const satang = (baht: unknown): number => (typeof baht === 'number' && Number.isFinite(baht) ? Math.round(baht * 100) : 0);

/** What GET /api/bonus/check/active's progress carries that the lock needs. */
export interface LockProgress {
  amount: number;
  turnover: number;
  target: number;
}

export interface BonusLock {
  /** Turnover counted, at most the target; the target; what is left to wager (baht). */
  done: number;
  target: number;
  remaining: number;
  /** Whole percent done, rounded down: 100 only when nothing remains. */
  percent: number;
  /** What cancelling the bonus now takes back from the wallet and the games (baht). */
  takesBack: number;
}

/** The lock of the active bonus, or null when none is active (or its progress is unknown). */
export function bonusLock(active: { status: boolean; progress: LockProgress | null } | undefined, totalBalance: number | undefined): BonusLock | null {
  if (!active?.status || !active.progress) return null;
  const target = Math.max(0, satang(active.progress.target));
  const done = Math.min(Math.max(0, satang(active.progress.turnover)), target);
  const remaining = target - done;
  const percent = target > 0 ? Math.floor((done * 100) / target) : 100;
  const takesBack = Math.max(0, Math.min(satang(active.progress.amount), satang(totalBalance)));
  return { done: done / 100, target: target / 100, remaining: remaining / 100, percent, takesBack: takesBack / 100 };
}

/** A bonus's terms as GET /api/bonus lists them (percent of the wallet, capped; turnover a multiple of the start). */
export interface BonusTerms {
  percent: number;
  cap: number;
  turnoverMultiple: number;
}

/**
 * What receiving a bonus now would lock, as the server computes it at activation (docs/bonus.md): the bonus is
 * percent of the wallet rounded down to the satang, at most the cap; the target is (wallet + bonus) x multiple,
 * rounded up. Null when the terms are not numbers. The server's answer is the authority; this is the estimate the
 * modal names before the player receives.
 */
export function lockOnReceiving(terms: BonusTerms, walletBalance: number | undefined): { bonus: number; target: number } | null {
  const { percent, cap, turnoverMultiple } = terms;
  if (![percent, cap, turnoverMultiple].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return null;
  const wallet = Math.max(0, satang(walletBalance));
  // percent and the multiple carry at most 2 decimals (basis points and x100 on the server): integers from here.
  const bonus = Math.min(Math.floor((wallet * Math.round(percent * 100)) / 10_000), satang(cap));
  const target = Math.ceil(((wallet + bonus) * Math.round(turnoverMultiple * 100)) / 100);
  return { bonus: bonus / 100, target: target / 100 };
}
