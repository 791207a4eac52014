import type { BonusProgress } from './bonusApi';

/** The placeholder an operator's notice may hold (spec §2 bonus modal). */
export const PERCENT_FAIL_PLACEHOLDER = '%percentFail%';

/** The notice with every %percentFail% replaced by the bonus's fail percentage (sanitized afterwards). */
export function fillNotice(html: string, percentFail: number): string {
  const value = Number.isFinite(percentFail) ? String(percentFail) : '-';
  return html.split(PERCENT_FAIL_PLACEHOLDER).join(value);
}

/** Spec §5: a promotion code is required and upper-cased before the find and activate calls. */
export function normalizePromotionCode(input: string): string {
  return input.trim().toUpperCase();
}

export interface TurnoverProgress {
  /** Turnover counted towards the target, at most the target. */
  done: number;
  target: number;
  /** Whole percent done, rounded down, so 100 means the target is reached. */
  percent: number;
}

/** Turnover done against the target, for the progress bar and its numbers. */
export function turnoverProgress(progress: Pick<BonusProgress, 'turnover' | 'target'>): TurnoverProgress {
  const target = Number.isFinite(progress.target) && progress.target > 0 ? progress.target : 0;
  const turnover = Number.isFinite(progress.turnover) ? Math.max(0, progress.turnover) : 0;
  if (target === 0) return { done: 0, target: 0, percent: 100 };
  const done = Math.min(turnover, target);
  // In satang (whole numbers): 0.07 / 0.1 is 0.6999... in floating point, but 7 of 10 satang is 70%.
  const targetSatang = Math.round(target * 100);
  const percent = targetSatang > 0 ? Math.floor((Math.round(done * 100) * 100) / targetSatang) : 100;
  return { done, target, percent };
}
