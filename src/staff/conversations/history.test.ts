import { at, message } from '../../test/support/staff';
import type { ChatMessage, HistoryPage } from '../types';
import { historyReducer, initialHistory, selectHasOlder, selectOlderSkip, type HistoryEvent, type HistoryState } from './history';

const run = (events: HistoryEvent[], from: HistoryState) => events.reduce(historyReducer, from);
const m = (n: number, over: Partial<ChatMessage> = {}) => message(`m${n}`, { createdAt: at(n), ...over });
const page = (numbers: number[], total: number, closed = false): HistoryPage => ({ total, messages: numbers.map((n) => m(n)), closed });
const idsOf = (s: HistoryState) => (s.status === 'ready' ? s.messages.map((x) => x._id) : null);

const loading = initialHistory('r1');
// the 3 newest of 5
const ready = run([{ type: 'history/loaded', requestId: 'r1', page: page([3, 4, 5], 5) }], loading);

describe('history: first page', () => {
  it('loading -> ready with the newest page, oldest first; older ones exist', () => {
    expect(ready).toEqual({ status: 'ready', messages: [m(3), m(4), m(5)], total: 5, closed: false, older: { status: 'idle' } });
    expect(selectHasOlder(ready)).toBe(true);
    expect(selectOlderSkip(ready)).toBe(3);
  });

  it('an answer in another order is put in time order', () => {
    expect(idsOf(run([{ type: 'history/loaded', requestId: 'r1', page: page([5, 3, 4], 3) }], loading))).toEqual(['m3', 'm4', 'm5']);
  });

  it("another request's answer is ignored; a failure of its own request -> failed", () => {
    expect(run([{ type: 'history/loaded', requestId: 'r0', page: page([1], 1) }], loading)).toBe(loading);
    expect(run([{ type: 'history/loadFailed', requestId: 'r1', code: 'NO_DATA' }], loading)).toEqual({ status: 'failed', code: 'NO_DATA' });
  });

  it('a message arriving while the page loads is merged once into the answer', () => {
    const s = run(
      [
        { type: 'history/messageArrived', message: m(6) },
        { type: 'history/messageArrived', message: m(6) },
        { type: 'history/loaded', requestId: 'r1', page: page([4, 5], 5) },
      ],
      loading,
    );
    expect(idsOf(s)).toEqual(['m4', 'm5', 'm6']);
    expect(s.status === 'ready' && s.total).toBe(6);
    // ...and when the answer already had it, it is not counted twice
    const again = run([{ type: 'history/messageArrived', message: m(5) }, { type: 'history/loaded', requestId: 'r1', page: page([4, 5], 5) }], loading);
    expect(again.status === 'ready' && [again.messages.length, again.total]).toEqual([2, 5]);
  });

  it('a new load (reconnect) starts over from loading', () => {
    expect(run([{ type: 'history/loadStarted', requestId: 'r2' }], ready)).toEqual(initialHistory('r2'));
  });
});

describe('history: older pages', () => {
  it('ready -> older loading -> the older page prepended; no older left', () => {
    const s = run([{ type: 'history/olderStarted', requestId: 'o1' }], ready);
    expect(s.status === 'ready' && s.older).toEqual({ status: 'loading', requestId: 'o1' });
    const done = run([{ type: 'history/olderLoaded', requestId: 'o1', page: page([1, 2], 5) }], s);
    expect(idsOf(done)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(selectHasOlder(done)).toBe(false);
    // no older messages: asking again does nothing
    expect(run([{ type: 'history/olderStarted', requestId: 'o2' }], done)).toBe(done);
  });

  it('a second ask while one runs, and answers of other requests, are ignored', () => {
    const s = run([{ type: 'history/olderStarted', requestId: 'o1' }], ready);
    expect(run([{ type: 'history/olderStarted', requestId: 'o2' }], s)).toBe(s);
    expect(run([{ type: 'history/olderLoaded', requestId: 'o2', page: page([1, 2], 5) }], s)).toBe(s);
    expect(run([{ type: 'history/olderFailed', requestId: 'o2', code: 'NETWORK' }], s)).toBe(s);
  });

  it('a failed older page keeps the messages and can be asked again', () => {
    const failed = run([{ type: 'history/olderStarted', requestId: 'o1' }, { type: 'history/olderFailed', requestId: 'o1', code: 'NETWORK' }], ready);
    expect(failed.status === 'ready' && failed.older).toEqual({ status: 'failed', code: 'NETWORK' });
    expect(idsOf(failed)).toEqual(['m3', 'm4', 'm5']);
    expect(run([{ type: 'history/olderStarted', requestId: 'o2' }], failed)).toMatchObject({ older: { status: 'loading', requestId: 'o2' } });
  });

  it('an overlapping older page (messages arrived since) adds each message once', () => {
    const s = run([{ type: 'history/olderStarted', requestId: 'o1' }, { type: 'history/olderLoaded', requestId: 'o1', page: page([2, 3], 5) }], ready);
    expect(idsOf(s)).toEqual(['m2', 'm3', 'm4', 'm5']);
  });

  it('older pages are not asked for before the first page', () => {
    expect(run([{ type: 'history/olderStarted', requestId: 'o1' }], loading)).toBe(loading);
  });
});

describe('history: live messages and closing', () => {
  it('a live message is appended once (the own reply and its socket copy share an _id)', () => {
    const s = run([{ type: 'history/messageArrived', message: m(6, { sender: 'other' }) }, { type: 'history/messageArrived', message: m(6, { sender: 'other' }) }], ready);
    expect(idsOf(s)).toEqual(['m3', 'm4', 'm5', 'm6']);
    expect(s.status === 'ready' && s.total).toBe(6);
    expect(selectOlderSkip(s)).toBe(4);
  });

  it('closing marks it closed once; any new message (the customer writing again, a staff reply) reopens it', () => {
    const closed = run([{ type: 'history/closed' }], ready);
    expect(closed.status === 'ready' && closed.closed).toBe(true);
    expect(run([{ type: 'history/closed' }], closed)).toBe(closed);
    expect(run([{ type: 'history/messageArrived', message: m(7, { sender: 'other', session_id: 's2' }) }], closed)).toMatchObject({ closed: false });
    expect(run([{ type: 'history/messageArrived', message: m(8, { session_id: 's2' }) }], closed)).toMatchObject({ closed: false });
    // a message already held changes nothing
    expect(run([{ type: 'history/messageArrived', message: m(5) }], closed)).toBe(closed);
  });

  it("the server's copy of a reply shown at once replaces it when it went into another session", () => {
    const own = m(6, { sender: 'other', session_id: 's1' });
    const shown = run([{ type: 'history/messageArrived', message: own }], ready);
    const copy = { ...own, session_id: 's2' };
    const s = run([{ type: 'history/messageArrived', message: copy }], shown);
    expect(s.status === 'ready' && [s.messages[3], s.total]).toEqual([copy, 6]);
    expect(run([{ type: 'history/messageArrived', message: { ...own } }], shown)).toBe(shown);
  });

  it("the server's closed flag holds unless a message came while the page loaded", () => {
    expect(run([{ type: 'history/loaded', requestId: 'r1', page: page([1], 1, true) }], loading)).toMatchObject({ closed: true });
    const reopened = run([{ type: 'history/messageArrived', message: m(2) }, { type: 'history/loaded', requestId: 'r1', page: page([1], 1, true) }], loading);
    expect(reopened).toMatchObject({ closed: false });
  });

  it('nothing happens to a failed history', () => {
    const failed: HistoryState = { status: 'failed', code: 'NETWORK' };
    expect(run([{ type: 'history/messageArrived', message: m(1) }, { type: 'history/closed' }], failed)).toBe(failed);
  });
});
