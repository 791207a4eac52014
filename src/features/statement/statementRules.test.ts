import { i18n } from '../../app/i18n';
import { formatAmount } from '../../lib/format';
import type { StatementEntry } from './statementApi';
import { accountName, activityText, entryKind, signedAmount, statusView, type Texts } from './statementRules';

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
    expect(activityText(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }), texts())).toBe('Wallet → pg');
    expect(activityText(entry({ statementType: 'transfer', from: 'pg', to: 'WALLET' }), texts())).toBe('pg → Wallet');
    expect(activityText(entry({ statementType: 'deposit', from: 'TRUEMONEY' }), texts())).toBe('From TrueMoney gift');
    expect(activityText(entry({ statementType: 'cashback', from: 'X', to: 'WALLET' }), texts())).toBe('X → Wallet');
    // An empty description is no description.
    expect(activityText(entry({ statementType: 'bonus', from: 'BONUS', bonus: { description: ' ' } }), texts())).toBe('From Bonus');
  });

  it('speaks the player’s language', async () => {
    await i18n.changeLanguage('th');
    expect(activityText(entry({ statementType: 'withdraw', from: 'WALLET', to: 'KBANK' }), texts())).toBe('ไปยัง KBANK');
    expect(activityText(entry({ statementType: 'transfer', from: 'WALLET', to: 'pg' }), texts())).toBe('กระเป๋าเงิน → pg');
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
