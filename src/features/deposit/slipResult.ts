import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import type { SlipUploadAnswer } from './depositApi';

/**
 * What an upload came to, for the player: credited with its amount, or refused with the reason code of
 * spec §8's slip table (slipReasons.<CODE>) or an upload code (errors.<CODE>: closed hours, no file, bad file).
 */
export type SlipUploadResult =
  /** reference: the bank's transaction reference read from the slip (else the slip's id); at: when it was sent. */
  | { kind: 'credited'; amount: number; reference: string; at: string }
  | { kind: 'pending' }
  /** Held for staff (issue 40): not from the registered account, or over a deposit limit; its statement line is in progress. */
  | { kind: 'review'; code: 'NOT_MATCH' | 'DEPOSIT_LIMIT' }
  | { kind: 'refused'; code: string; textKey: string };

/** Answers that leave the slip's money with staff: the player is told it is being checked, not only refused. */
const HELD_FOR_REVIEW = new Set(['NOT_MATCH', 'DEPOSIT_LIMIT']);

export function reasonTextKey(code: string, exists: (key: string) => boolean): string {
  if (exists(`slipReasons.${code}`)) return `slipReasons.${code}`;
  if (exists(`errors.${code}`)) return `errors.${code}`;
  return 'errors.GENERIC';
}

export function slipUploadResult(
  answer: { data?: SlipUploadAnswer; error?: FetchBaseQueryError | SerializedError },
  exists: (key: string) => boolean,
): SlipUploadResult {
  const slip = answer.data?.slip;
  if (answer.data && slip) {
    if (slip.status === 'SUCCESS') return { kind: 'credited', amount: Number(slip.amount), reference: slip.reference || slip.id, at: slip.createdAt };
    if (slip.status === 'IN_PROGRESS') return { kind: 'pending' };
    const code = slip.note || answer.data.message || 'GENERIC';
    return { kind: 'refused', code, textKey: reasonTextKey(code, exists) };
  }
  const code = errorCode(answer.error);
  if (HELD_FOR_REVIEW.has(code)) return { kind: 'review', code: code as 'NOT_MATCH' | 'DEPOSIT_LIMIT' };
  return { kind: 'refused', code, textKey: reasonTextKey(code, exists) };
}

/**
 * What the player should do after a refused slip (issue 40 item 9), per reason: slipAdvice.<CODE> when the locales
 * have advice for that code, else the general advice (check the slip and upload it again, or ask staff).
 */
export function slipAdviceKey(code: string, exists: (key: string) => boolean): string {
  return exists(`slipAdvice.${code}`) ? `slipAdvice.${code}` : 'slipAdvice.default';
}
