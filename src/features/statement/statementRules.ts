/**
 * What one statement entry shows (spec §2 statement screen), as pure functions over the entry and a translate
 * function: the kind (its icon and label), the activity text, the status with its style, the signed amount.
 */
import { selectStatementSign, type Translate } from '../../lib/format';
import { statementRef } from '../../../shared/statement-ref';
import { LINKED_KINDS, type StatementEntry } from './statementApi';

/** The entry kinds with an icon and a label of their own; anything else is 'other'. */
export type EntryKind = 'deposit' | 'bonus' | 'finishBonus' | 'withdraw' | 'transfer' | 'other';

export function entryKind(statementType: string): EntryKind {
  switch (statementType) {
    case 'deposit':
    case 'bonus':
    case 'withdraw':
    case 'transfer':
      return statementType;
    case 'finish_bonus':
      return 'finishBonus';
    default:
      return 'other';
  }
}

/** A translate function that can also say whether a key exists (i18next's t and exists). */
export interface Texts {
  t: Translate;
  exists: (key: string) => boolean;
}

/**
 * Names the player's language has for codes the statement carries (issue 40): games (the wallet's slots), banks
 * (the banks lookup, by language), bonuses (the bonus list, by language). Missing maps: the code stands.
 */
export interface AccountNames {
  games?: Record<string, string>;
  banks?: Record<string, string>;
  bonuses?: Record<string, string>;
}

/**
 * An account code as the player reads it: WALLET, BONUS, ... and the payment methods (WW, E2P) are translated, a
 * game or a bank by its name; the code itself only when nothing names it.
 */
export function accountName(code: string, { t, exists }: Texts, names: AccountNames = {}): string {
  const key = `statement.accounts.${code}`;
  if (/^[A-Z0-9_]+$/.test(code) && exists(key)) return t(key);
  return names.games?.[code] ?? names.banks?.[code] ?? code;
}

/**
 * The activity text: the linked item's description where the entry has one (a bonus or promotion code, the
 * invite, the refund, the lucky draw prize), otherwise a text for the entry's type with where the money came
 * from and went to.
 */
export function activityText(entry: StatementEntry, texts: Texts, names: AccountNames = {}): string {
  for (const kind of LINKED_KINDS) {
    const raw = entry[kind]?.description;
    // A bonus line's description is the bonus's code: its name in the player's language where the list knows it.
    const description = typeof raw === 'string' && (kind === 'bonus' || kind === 'promotion') ? (names.bonuses?.[raw] ?? raw) : raw;
    if (typeof description === 'string' && description.trim() !== '') return texts.t(`statement.linked.${kind}`, { description });
  }
  const direction = lineDirection(entry);
  // Unsigned lines say their direction in words (to or from a game; taken back).
  const key = direction === 'toGame' || direction === 'fromGame' || direction === 'takenBack' ? `statement.activity.${direction}` : `statement.activity.${entryKind(entry.statementType)}`;
  return texts.t(key, {
    from: accountName(entry.from, texts, names),
    to: accountName(entry.to, texts, names),
  });
}

/**
 * Which way a line's money went (issue 40 item 5), for its words and colour: in (deposit, bonus), out (withdraw),
 * to or from a game (a transfer: no sign, never in the colours of money in), taken back (a bonus cleared: the
 * wallet gave it back), none (a bonus that ended: nothing moved).
 */
export type LineDirection = 'in' | 'out' | 'toGame' | 'fromGame' | 'takenBack' | 'none';

export function lineDirection(entry: Pick<StatementEntry, 'statementType' | 'from' | 'to'>): LineDirection {
  switch (entry.statementType) {
    case 'deposit':
    case 'bonus':
      return 'in';
    case 'withdraw':
      return 'out';
    case 'transfer':
      return entry.from === 'WALLET' ? 'toGame' : 'fromGame';
    case 'finish_bonus':
      return entry.from === 'WALLET' ? 'takenBack' : 'none';
    default:
      return 'none';
  }
}

export type OutcomeKey = 'inProgress' | 'inReview' | 'success' | 'failed' | 'rejected' | 'takenBack' | 'completed' | 'notCompleted';
export type OutcomeTone = StatusTone | 'neutral';

/**
 * What happened, in words (issue 40 item 5): a clawback is "taken back", not "failed"; a bonus that ended is
 * completed or not completed; a deposit staff check is "being checked", one they refused "not accepted".
 */
export function lineOutcome(entry: Pick<StatementEntry, 'statementType' | 'status' | 'from' | 'to' | 'reason' | 'note'>): { key: OutcomeKey; tone: OutcomeTone } {
  if (entry.statementType === 'finish_bonus') {
    if (lineDirection(entry) === 'takenBack') return { key: 'takenBack', tone: 'neutral' };
    return entry.status === 'SUCCESS' ? { key: 'completed', tone: 'success' } : { key: 'notCompleted', tone: 'neutral' };
  }
  if (entry.status === 'SUCCESS') return { key: 'success', tone: 'success' };
  if (entry.status === 'FAILED') return entry.statementType === 'deposit' && (entry.note || entry.reason) ? { key: 'rejected', tone: 'danger' } : { key: 'failed', tone: 'danger' };
  return entry.reason ? { key: 'inReview', tone: 'warning' } : { key: 'inProgress', tone: 'warning' };
}

/** The line's short reference: the server's, or derived the same way (shared/statement-ref.ts) from an older server's line. */
export function lineRef(entry: Pick<StatementEntry, '_id' | 'statementType' | 'createdAt' | 'ref'>): string {
  return entry.ref || statementRef(entry);
}

/** The local calendar day of a line (YYYY-MM-DD), the day its date shows. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Lines grouped by local day, newest first as they came; a day split across pages is one group per page. */
export function groupByDay<E extends Pick<StatementEntry, 'createdAt'>>(entries: readonly E[]): { day: string; entries: E[] }[] {
  const groups: { day: string; entries: E[] }[] = [];
  for (const entry of entries) {
    const day = localDay(entry.createdAt);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.entries.push(entry);
    else groups.push({ day, entries: [entry] });
  }
  return groups;
}

/** A day heading: today, yesterday, or the date (DD/MM/YYYY, as every date of the app). */
export function dayLabel(day: string, now: number, t: Translate): string {
  if (day === localDay(new Date(now).toISOString())) return t('statement.day.today');
  if (day === localDay(new Date(now - 86_400_000).toISOString())) return t('statement.day.yesterday');
  const [y, m, d] = day.split('-');
  return d && m && y ? `${d}/${m}/${y}` : day;
}

export type StatusTone = 'warning' | 'success' | 'danger';

/** Spec §4: in progress is the default (warning style), then SUCCESS and FAILED. */
export function statusView(status: string): { key: 'inProgress' | 'success' | 'failed'; tone: StatusTone } {
  if (status === 'SUCCESS') return { key: 'success', tone: 'success' };
  if (status === 'FAILED') return { key: 'failed', tone: 'danger' };
  return { key: 'inProgress', tone: 'warning' };
}

/** Spec §9 statement sign before the formatted amount: + for deposit and bonus, - for withdraw, none otherwise. */
export function signedAmount(entry: Pick<StatementEntry, 'statementType' | 'amount'>, format: (value: unknown) => string): string {
  const text = format(entry.amount);
  const sign = selectStatementSign(entry.statementType);
  // A dash (not a number) takes no sign; amounts come positive, and a stray minus is not doubled.
  if (text === '-' || sign === '') return text;
  return `${sign}${text.replace(/^-/, '')}`;
}

/** Why a deposit waits for staff, in words (deposit.qr.reviewReason, shared with the deposit modal); an unknown kind reads as a check. */
export function reviewReasonText(reason: string, { t, exists }: Texts): string {
  const key = `deposit.qr.reviewReason.${reason}`;
  return exists(key) ? t(key) : t('deposit.qr.reviewReason.other');
}
