import { i18n } from '../../core/i18n';
import { formatAmount } from '../../lib/format';
import type { StatementEntry } from './statementApi';
import { statementRef } from '../../../shared/statement-ref';
import { accountName, activityText, dayLabel, entryKind, groupByDay, lineDirection, lineOutcome, lineRef, reviewReasonText, signedAmount, statusView, type Texts } from './statementRules';

const texts = (): Texts => ({ t: (key, options) => i18n.t(key, options) as string, exists: (key) => i18n.exists(key) });

const entry = (over: Partial<StatementEntry> = {}): StatementEntry => ({
  _id: '1',
  statementType: 'deposit',
  status: 'SUCCESS',
  from: 'KBANK',
  to: 'WALLET',
  amount: 100,
  createdAt: '2026-11-20T05:06:07.000Z',
  ...over,
});

describe('statement sign and amount (spec §9)', () => {
  it.each([
    ['deposit', '+1,000.50'],
    ['bonus', '+1,000.50'],
    ['withdraw', '-1,000.50'],
    ['transfer', '1,000.50'],
    ['finish_bonus', '1,000.50'],
    ['something_new', '1,000.50'],
  ])('%s shows %s', (statementType, shown) => {
    expect(signedAmount({ statementType, amount: 1000.5 }, (v) => formatAmount(v))).toBe(shown);
  });

  it('gives a dash no sign and never doubles a minus', () => {
    expect(signedAmount({ statementType: 'deposit', amount: Number.NaN }, (v) => formatAmount(v))).toBe('-');
    expect(signedAmount({ statementType: 'withdraw', amount: -5 }, (v) => formatAmount(v))).toBe('-5.00');
    expect(signedAmount({ statementType: 'transfer', amount: -5 }, (v) => formatAmount(v))).toBe('-5.00');
  });
});

describe('entry kind (the icon and label)', () => {
  it.each([
    ['deposit', 'deposit'],
    ['bonus', 'bonus'],
    ['finish_bonus', 'finishBonus'],
    ['withdraw', 'withdraw'],
    ['transfer', 'transfer'],
    ['cashback', 'other'],
  ])('%s -> %s', (type, kind) => {
    expect(entryKind(type)).toBe(kind);
  });
});

describe('status (spec §4)', () => {
  it.each([
    ['IN_PROGRESS', 'inProgress', 'warning'],
    ['SUCCESS', 'success', 'success'],
    ['FAILED', 'failed', 'danger'],
    ['', 'inProgress', 'warning'],
    ['PENDING', 'inProgress', 'warning'],
  ])('%p is %s in the %s style', (status, key, tone) => {
    expect(statusView(status)).toEqual({ key, tone });
  });
});

describe('activity text', () => {
  it('uses the linked item’s description where there is one', () => {
    expect(activityText(entry({ statementType: 'bonus', from: 'BONUS', bonus: { description: 'FIRST10' } }), texts())).toBe('Bonus FIRST10');
    expect(activityText(entry({ statementType: 'bonus', from: 'PROMOTION', promotion: { description: 'WELCOME50' } }), texts())).toBe('Promotion code WELCOME50');
    expect(activityText(entry({ statementType: 'bonus', from: 'INVITE', invite: { description: '3' } }), texts())).toBe('Invite bonus: 3');
    expect(activityText(entry({ statementType: 'bonus', from: 'REFUND', refund: { description: '5%' } }), texts())).toBe('Refund 5%');
    expect(activityText(entry({ statementType: 'bonus', from: 'LUCKYDRAW', luckydraw: { description: '50 baht' } }), texts())).toBe('Lucky draw: 50 baht');
    expect(activityText(entry({ statementType: 'finish_bonus', from: 'WALLET', to: 'BONUS', bonus: { description: 'FIRST10' } }), texts())).toBe('Bonus FIRST10');
  });

  it('otherwise says where the money came from and went, by type, with the app’s own accounts translated', () => {
    expect(activityText(entry(), texts())).toBe('From KBANK');
    expect(activityText(entry({ statementType: 'withdraw', from: 'WALLET', to: 'SCB' }), texts())).toBe('To SCB');
    expect(activityText(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }), texts())).toBe('To the game pg');
    expect(activityText(entry({ statementType: 'transfer', from: 'pg', to: 'WALLET' }), texts())).toBe('From the game pg');
    expect(activityText(entry({ statementType: 'deposit', from: 'TRUEMONEY' }), texts())).toBe('From TrueMoney gift');
    expect(activityText(entry({ statementType: 'cashback', from: 'X', to: 'WALLET' }), texts())).toBe('X → Wallet');
    // An empty description is no description.
    expect(activityText(entry({ statementType: 'bonus', from: 'BONUS', bonus: { description: ' ' } }), texts())).toBe('From Bonus');
  });

  it('speaks the player’s language', async () => {
    await i18n.changeLanguage('th');
    expect(activityText(entry({ statementType: 'withdraw', from: 'WALLET', to: 'KBANK' }), texts())).toBe('ไปยัง KBANK');
    expect(activityText(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }), texts())).toBe('ไปยังเกม pg');
    await i18n.changeLanguage('la');
    expect(activityText(entry({ statementType: 'bonus', from: 'REFUND', refund: { description: '5%' } }), texts())).toBe('ຄືນຍອດເສຍ 5%');
    await i18n.changeLanguage('en');
  });

  it('keeps codes that are no account of the app (banks, games, anything in lower case) as they are', () => {
    expect(accountName('KBANK', texts())).toBe('KBANK');
    expect(accountName('wallet', texts())).toBe('wallet');
    expect(accountName('constructor', texts())).toBe('constructor');
    expect(accountName('WALLET', texts())).toBe('Wallet');
  });
});

describe('issue 40: direction, outcome, reference, names, days', () => {
  it('says which way the money went: in, out, to or from a game, taken back, nothing moved', () => {
    expect(lineDirection(entry())).toBe('in');
    expect(lineDirection(entry({ statementType: 'bonus', from: 'BONUS' }))).toBe('in');
    expect(lineDirection(entry({ statementType: 'withdraw', from: 'WALLET', to: 'KBANK' }))).toBe('out');
    expect(lineDirection(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }))).toBe('toGame');
    expect(lineDirection(entry({ statementType: 'transfer', from: 'pg', to: 'WALLET' }))).toBe('fromGame');
    expect(lineDirection(entry({ statementType: 'finish_bonus', from: 'WALLET', to: 'BONUS', status: 'FAILED' }))).toBe('takenBack');
    expect(lineDirection(entry({ statementType: 'finish_bonus', from: 'BONUS', to: 'WALLET' }))).toBe('none');
  });

  it('a clawback is taken back (not failed); a bonus that ended is completed or not; a deposit staff check or refused says so', () => {
    expect(lineOutcome(entry({ statementType: 'finish_bonus', from: 'WALLET', to: 'BONUS', status: 'FAILED' }))).toEqual({ key: 'takenBack', tone: 'neutral' });
    expect(lineOutcome(entry({ statementType: 'finish_bonus', from: 'BONUS', status: 'SUCCESS' }))).toEqual({ key: 'completed', tone: 'success' });
    expect(lineOutcome(entry({ statementType: 'finish_bonus', from: 'BONUS', status: 'FAILED' }))).toEqual({ key: 'notCompleted', tone: 'neutral' });
    expect(lineOutcome(entry({ status: 'IN_PROGRESS', reason: 'AMOUNT_MISMATCH' }))).toEqual({ key: 'inReview', tone: 'warning' });
    expect(lineOutcome(entry({ status: 'IN_PROGRESS' }))).toEqual({ key: 'inProgress', tone: 'warning' });
    expect(lineOutcome(entry({ status: 'FAILED', note: 'third-party account' }))).toEqual({ key: 'rejected', tone: 'danger' });
    expect(lineOutcome(entry({ statementType: 'withdraw', status: 'FAILED' }))).toEqual({ key: 'failed', tone: 'danger' });
    expect(lineOutcome(entry())).toEqual({ key: 'success', tone: 'success' });
  });

  it('the short reference is the server one, else derived the same way from the line (never the bonus id "1")', () => {
    expect(lineRef(entry({ ref: 'D-2612-4821' }))).toBe('D-2612-4821');
    const derived = lineRef(entry({ _id: '1', statementType: 'finish_bonus', createdAt: '2026-12-01T18:00:00.000Z' }));
    // Thai time: 1 Dec 18:00 UTC is 2 Dec 01:00 there, still December.
    expect(derived).toMatch(/^E-2612-\d{4}$/);
    expect(derived).toBe(statementRef({ _id: '1', statementType: 'finish_bonus', createdAt: '2026-12-01T18:00:00.000Z' }));
    expect(lineRef(entry({ _id: '2', createdAt: '2026-12-31T17:30:00.000Z' }))).toMatch(/^D-2701-/);
  });

  it('names codes in the player language: WW and E2P translated, games and banks by name, bonuses by their name', () => {
    const names = { games: { pg: 'PG Soft' }, banks: { KBANK: 'Kasikorn Bank' }, bonuses: { DAILY5: 'Daily 5%' } };
    expect(accountName('WW', texts())).toBe('Wallet QR');
    expect(accountName('E2P', texts())).toBe('QR payment');
    expect(accountName('pg', texts(), names)).toBe('PG Soft');
    expect(accountName('KBANK', texts(), names)).toBe('Kasikorn Bank');
    expect(accountName('SCB', texts(), names)).toBe('SCB');
    expect(activityText(entry({ from: 'KBANK' }), texts(), names)).toBe('From Kasikorn Bank');
    expect(activityText(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }), texts(), names)).toBe('To the game PG Soft');
    expect(activityText(entry({ statementType: 'bonus', from: 'BONUS', bonus: { description: 'DAILY5' } }), texts(), names)).toBe('Bonus Daily 5%');
    expect(activityText(entry({ statementType: 'finish_bonus', from: 'WALLET', to: 'BONUS' }), texts(), names)).toBe('Bonus taken back from your wallet');
  });

  it('a review reason in words, an unknown one as a check', () => {
    expect(reviewReasonText('QR_EXPIRED', texts())).toBe('paid after the QR code had expired');
    expect(reviewReasonText('SOMETHING_NEW', texts())).toBe('it needs a check by our staff');
  });

  it('groups lines by local day in their order, and names today and yesterday', () => {
    const now = new Date(2026, 11, 2, 12, 0).getTime();
    const lines = [
      entry({ _id: 'a', createdAt: new Date(2026, 11, 2, 9).toISOString() }),
      entry({ _id: 'b', createdAt: new Date(2026, 11, 2, 0, 1).toISOString() }),
      entry({ _id: 'c', createdAt: new Date(2026, 11, 1, 23, 59).toISOString() }),
      entry({ _id: 'd', createdAt: new Date(2026, 10, 28, 8).toISOString() }),
    ];
    const groups = groupByDay(lines);
    expect(groups.map((g) => [g.day, g.entries.map((e) => e._id)])).toEqual([
      ['2026-12-02', ['a', 'b']],
      ['2026-12-01', ['c']],
      ['2026-11-28', ['d']],
    ]);
    const t = texts().t;
    expect(groups.map((g) => dayLabel(g.day, now, t))).toEqual(['Today', 'Yesterday', '28/11/2026']);
  });
});
