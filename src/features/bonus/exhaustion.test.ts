import type { Bonus, BonusType } from './bonusApi';
import { countReceived, isExhausted, selectBonusCardState, zoneOffsetMinutes } from './exhaustion';

/** Instants written in Bangkok wall time (+07:00), as the operator's calendar reads them. */
const bkk = (wall: string) => `${wall}+07:00`;
const received = (...walls: string[]) => walls.map((wall) => ({ updatedAt: new Date(bkk(wall)).toISOString() }));
const card = (type: BonusType, maxReceived: number, walls: string[], isActive = false): Pick<Bonus, 'type' | 'maxReceived' | 'userBonus'> => ({
  type,
  maxReceived,
  userBonus: walls.length || isActive ? { _id: 'ub1', isActive, received: received(...walls) } : null,
});

describe('bonus exhaustion (a fake clock across day and week boundaries)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const at = (wall: string) => {
    jest.setSystemTime(new Date(bkk(wall)));
    return Date.now();
  };

  it('Bangkok is UTC+7', () => {
    expect(zoneOffsetMinutes(Date.parse('2026-01-01T00:00:00Z'))).toBe(420);
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T12:34:56.789Z'))).toBe(420);
  });

  it('limit counts every receipt, whenever it was', () => {
    const bonus = card('limit', 2, ['2025-01-01T10:00:00', '2026-11-25T10:00:00']);
    expect(countReceived('limit', bonus.userBonus!.received, at('2026-11-26T12:00:00'))).toBe(2);
    expect(isExhausted(bonus, Date.now())).toBe(true);
    expect(isExhausted(card('limit', 3, ['2025-01-01T10:00:00', '2026-11-25T10:00:00']), Date.now())).toBe(false);
  });

  it('day counts the current Bangkok calendar day: exhausted until midnight, available from 00:00', () => {
    const bonus = card('day', 1, ['2026-11-26T00:00:00']);
    expect(selectBonusCardState(bonus, at('2026-11-26T23:59:59'))).toBe('exhausted');
    expect(selectBonusCardState(bonus, at('2026-11-27T00:00:00'))).toBe('available');
    // Just before the day began it did not count either (received "tomorrow" cannot happen, but the edge holds).
    expect(countReceived('day', bonus.userBonus!.received, at('2026-11-25T23:59:59'))).toBe(0);
  });

  it("day follows Bangkok's calendar, not UTC's (a Bangkok day starts at 17:00 UTC the day before)", () => {
    // 2026-11-25T23:30 UTC is 2026-11-26T06:30 in Bangkok: the same Bangkok day as noon of the 26th.
    const list = [{ updatedAt: '2026-11-25T23:30:00.000Z' }];
    expect(countReceived('day', list, at('2026-11-26T12:00:00'))).toBe(1);
    // 2026-11-25T16:59 UTC is 23:59 on the 25th in Bangkok: the previous day.
    expect(countReceived('day', [{ updatedAt: '2026-11-25T16:59:59.000Z' }], Date.now())).toBe(0);
  });

  it('day counts only that day, up to maxReceived', () => {
    const bonus = card('day', 2, ['2026-11-25T22:00:00', '2026-11-26T09:00:00']);
    expect(selectBonusCardState(bonus, at('2026-11-26T10:00:00'))).toBe('available');
    const twice = card('day', 2, ['2026-11-26T08:00:00', '2026-11-26T09:00:00']);
    expect(selectBonusCardState(twice, Date.now())).toBe('exhausted');
  });

  it('week counts the current ISO week (Monday to Sunday) in Bangkok', () => {
    // 2026-11-23 is a Monday; 2026-11-29 the Sunday after.
    const bonus = card('week', 1, ['2026-11-23T00:00:00']);
    expect(selectBonusCardState(bonus, at('2026-11-29T23:59:59'))).toBe('exhausted');
    expect(selectBonusCardState(bonus, at('2026-11-30T00:00:00'))).toBe('available');
    const sunday = card('week', 1, ['2026-11-22T23:59:59']);
    expect(selectBonusCardState(sunday, at('2026-11-23T00:00:00'))).toBe('available');
    expect(selectBonusCardState(sunday, at('2026-11-22T23:59:59'))).toBe('exhausted');
  });

  it('week: a receipt late on Sunday UTC is already Monday in Bangkok', () => {
    // 2026-11-29T17:30 UTC (a Sunday in UTC) is Monday 2026-11-30 00:30 in Bangkok: the next week there.
    const list = [{ updatedAt: '2026-11-29T17:30:00.000Z' }];
    expect(countReceived('week', list, at('2026-11-30T12:00:00'))).toBe(1);
    expect(countReceived('week', list, at('2026-11-29T12:00:00'))).toBe(0);
  });

  it('the card states: active wins; never received is available; maxReceived is the bound', () => {
    const now = at('2026-11-26T12:00:00');
    expect(selectBonusCardState(card('limit', 1, ['2026-11-26T10:00:00'], true), now)).toBe('active');
    expect(selectBonusCardState(card('limit', 1, []), now)).toBe('available');
    expect(selectBonusCardState(card('limit', 3, ['2026-11-01T10:00:00', '2026-11-02T10:00:00']), now)).toBe('available');
    expect(selectBonusCardState(card('limit', 2, ['2026-11-01T10:00:00', '2026-11-02T10:00:00']), now)).toBe('exhausted');
  });

  it('ignores receipts whose date is not a date', () => {
    expect(countReceived('day', [{ updatedAt: 'yesterday' }], at('2026-11-26T12:00:00'))).toBe(0);
  });
});
