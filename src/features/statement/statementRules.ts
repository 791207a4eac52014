/**
 * What one statement entry shows (spec §2 statement screen), as pure functions over the entry and a translate
 * function: the kind (its icon and label), the activity text, the status with its style, the signed amount.
 */
import { selectStatementSign, type Translate } from '../../lib/format';
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

/** An account code as the player reads it: WALLET, BONUS, ... are translated; bank and game codes stay as they are. */
export function accountName(code: string, { t, exists }: Texts): string {
  const key = `statement.accounts.${code}`;
  return /^[A-Z_]+$/.test(code) && exists(key) ? t(key) : code;
}

/**
 * The activity text: the linked item's description where the entry has one (a bonus or promotion code, the
 * invite, the refund, the lucky draw prize), otherwise a text for the entry's type with where the money came
 * from and went to.
 */
export function activityText(entry: StatementEntry, texts: Texts): string {
  for (const kind of LINKED_KINDS) {
    const description = entry[kind]?.description;
    if (typeof description === 'string' && description.trim() !== '') return texts.t(`statement.linked.${kind}`, { description });
  }
  return texts.t(`statement.activity.${entryKind(entry.statementType)}`, {
    from: accountName(entry.from, texts),
    to: accountName(entry.to, texts),
  });
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
