import { syncTime } from './syncText';

describe('when the balance was read (issue 40 item 11)', () => {
  const at = (hours: number, minutes: number, seconds = 0, day = 1) => new Date(2026, 11, day, hours, minutes, seconds);

  it('is the clock time HH:mm for a read today, the same for the whole minute rather than "0 seconds ago"', () => {
    expect(syncTime(at(18, 52, 5), at(18, 52, 6))).toBe('18:52');
    expect(syncTime(at(18, 52, 5), at(18, 52, 35))).toBe('18:52');
    expect(syncTime(at(7, 3), at(23, 59))).toBe('07:03');
  });

  it('names the date too for a read on another day', () => {
    expect(syncTime(at(23, 58, 0, 1), at(0, 1, 0, 2))).toBe('01/12/2026 23:58');
  });

  it('says nothing it cannot read', () => {
    expect(syncTime('not a date', at(12, 0))).toBe('-');
  });
});
