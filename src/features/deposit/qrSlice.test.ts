import type { UnknownAction } from '@reduxjs/toolkit';
import { endpointAction, type Phase } from '../../test/support/rtkActions';

import { sessionEnded } from '../../core/authEvents';
import type { QrRecord } from './depositApi';
import {
  initialQrDepositState,
  PAID_MARGIN_MS,
  qrClockTicked,
  qrDepositOpened,
  qrDepositReducer,
  qrToReplace,
  type QrDepositState,
  type QrMachine,
} from './qrSlice';

/**
 * The QR machine's transition table. Events are the deposit endpoints' own RTK Query actions (built here
 * in their documented shape: type, meta.requestId, meta.arg.endpointName/originalArgs, timestamps).
 */
const check = (phase: Phase, bank: string, requestId: string, payload?: QrRecord, at = 0) => endpointAction('query', 'getQr', phase, requestId, bank, payload, at);
const create = (phase: Phase, bank: string, requestId: string, payload?: QrRecord, at = 0, amount = 100) =>
  endpointAction('mutation', 'createQr', phase, requestId, { bankCode: bank, amount }, payload, at);
const cancel = (phase: Phase, bank: string, requestId: string, qrcodeId = 'qr_1') => endpointAction('mutation', 'cancelQr', phase, requestId, { bankCode: bank, qrcodeId }, { hasQrcode: false, qrcodeId, message: '' });

const live = (qrcodeId = 'qr_1', expireIn = 300, amount = 100): QrRecord => ({ qrcodeId, hasQrcode: true, qrcode: '<svg/>', amount, expireIn, message: '' });
const nothing: QrRecord = { qrcodeId: null, hasQrcode: false, message: '' };

const run = (actions: UnknownAction[], from: QrDepositState = initialQrDepositState()) => actions.reduce(qrDepositReducer, from);
const machine = (state: QrDepositState, bank: 'KBANK' | 'WW' | 'E2P'): QrMachine => state[bank].machine;
const shownAt = (at = 0, id = 'qr_1', expireIn = 300) => run([create('pending', 'KBANK', 'c1'), create('fulfilled', 'KBANK', 'c1', live(id, expireIn), at)]);

describe('QR machine per bank', () => {
  it('starts with nothing for each bank, each to be checked', () => {
    const state = initialQrDepositState();
    for (const bank of ['KBANK', 'WW', 'E2P'] as const) expect(state[bank]).toEqual({ machine: { status: 'none' }, loadId: null, stale: true });
  });

  it('none -> creating -> shown, with the expiry counted from the answer', () => {
    const creating = run([create('pending', 'KBANK', 'c1', undefined, 0, 100)]);
    expect(machine(creating, 'KBANK')).toEqual({ status: 'creating', requestId: 'c1', amount: 100 });
    const shown = run([create('fulfilled', 'KBANK', 'c1', live('qr_1', 299), 5_000)], creating);
    expect(machine(shown, 'KBANK')).toEqual({ status: 'shown', qr: { qrcodeId: 'qr_1', svg: '<svg/>', amount: 100, expiresAt: 5_000 + 299_000 } });
  });

  it('shown -> expired when the clock reaches 00:00, not a moment before', () => {
    const shown = shownAt(0, 'qr_1', 3);
    expect(machine(run([qrClockTicked({ now: 2_999 })], shown), 'KBANK').status).toBe('shown');
    expect(machine(run([qrClockTicked({ now: 3_000 })], shown), 'KBANK')).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
  });

  it('shown -> cancelling -> cancelled; a refused cancel shows the QR again and checks it', () => {
    const shown = shownAt();
    const cancelling = run([cancel('pending', 'KBANK', 'd1')], shown);
    expect(machine(cancelling, 'KBANK').status).toBe('cancelling');
    expect(machine(run([cancel('fulfilled', 'KBANK', 'd1')], cancelling), 'KBANK')).toEqual({ status: 'cancelled', qrcodeId: 'qr_1' });
    const refused = run([cancel('rejected', 'KBANK', 'd1')], cancelling);
    expect(machine(refused, 'KBANK').status).toBe('shown');
    expect(refused.KBANK.stale).toBe(true);
  });

  it('shown -> paid when a check finds the QR gone before its end; expired when gone at its end', () => {
    const shown = shownAt(0, 'qr_1', 300);
    const paid = run([check('pending', 'KBANK', 'g1'), check('fulfilled', 'KBANK', 'g1', nothing, 60_000)], shown);
    expect(machine(paid, 'KBANK')).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
    const late = run([check('pending', 'KBANK', 'g2'), check('fulfilled', 'KBANK', 'g2', nothing, 300_000 - PAID_MARGIN_MS)], shown);
    expect(machine(late, 'KBANK')).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
  });

  describe('shown -> the outcome the server tells for that QR (last), whatever the heuristic would guess', () => {
    const gone = (status: 'PAID' | 'EXPIRED' | 'CANCELLED' | 'REVIEW', qrcodeId = 'qr_1'): QrRecord => ({ ...nothing, last: { qrcodeId, status } });
    const checkAt = (record: QrRecord, at: number, from = shownAt(0, 'qr_1', 300)) =>
      machine(run([check('pending', 'KBANK', 'g1'), check('fulfilled', 'KBANK', 'g1', record, at)], from), 'KBANK');

    it('PAID -> paid with the shown amount, even at its end', () => {
      expect(checkAt(gone('PAID'), 60_000)).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
      expect(checkAt(gone('PAID'), 300_000 - PAID_MARGIN_MS)).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
    });

    it('CANCELLED (from another device, or replaced) -> cancelled, not paid', () => {
      expect(checkAt(gone('CANCELLED'), 60_000)).toEqual({ status: 'cancelled', qrcodeId: 'qr_1' });
    });

    it('EXPIRED -> expired, even well before the countdown ends', () => {
      expect(checkAt(gone('EXPIRED'), 60_000)).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
    });

    it('REVIEW (paid with another amount) -> review, not paid; a new QR may be created from there', () => {
      const review = run([check('pending', 'KBANK', 'g1'), check('fulfilled', 'KBANK', 'g1', gone('REVIEW'), 60_000)], shownAt());
      expect(machine(review, 'KBANK')).toEqual({ status: 'review', qrcodeId: 'qr_1', amount: 100 });
      expect(machine(run([create('pending', 'KBANK', 'c2')], review), 'KBANK')).toEqual({ status: 'creating', requestId: 'c2', amount: 100 });
    });

    it('an outcome for another QR, or none, falls back to the heuristic', () => {
      for (const record of [gone('CANCELLED', 'qr_other'), gone('PAID', 'qr_other'), { ...nothing, last: null }, nothing]) {
        expect(checkAt(record, 60_000)).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
        expect(checkAt(record, 300_000 - PAID_MARGIN_MS)).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
      }
    });

    it('the outcome is taken only from the latest check, and only while the QR is shown', () => {
      const two = run([check('pending', 'KBANK', 'g1'), check('pending', 'KBANK', 'g2')], shownAt());
      expect(run([check('fulfilled', 'KBANK', 'g1', gone('CANCELLED'), 10_000)], two)).toBe(two);
      const cancelling = run([cancel('pending', 'KBANK', 'd1')], shownAt());
      expect(run([check('pending', 'KBANK', 'g3'), check('fulfilled', 'KBANK', 'g3', gone('PAID'), 10_000)], cancelling)).toBe(cancelling);
      const expired = run([qrClockTicked({ now: 300_000 })], shownAt());
      expect(machine(run([check('pending', 'KBANK', 'g4'), check('fulfilled', 'KBANK', 'g4', gone('PAID'), 301_000)], expired), 'KBANK')).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
    });
  });

  it('a check that finds a live QR shows it (opening the modal again), and resyncs a shown one', () => {
    const found = run([check('pending', 'WW', 'g1'), check('fulfilled', 'WW', 'g1', live('qr_w', 120, 200), 1_000)]);
    expect(machine(found, 'WW')).toEqual({ status: 'shown', qr: { qrcodeId: 'qr_w', svg: '<svg/>', amount: 200, expiresAt: 121_000 } });
    const resynced = run([check('pending', 'WW', 'g2'), check('fulfilled', 'WW', 'g2', live('qr_w', 100, 200), 10_000)], found);
    expect(machine(resynced, 'WW')).toMatchObject({ status: 'shown', qr: { expiresAt: 110_000 } });
  });

  it('hasQrcode false on create goes back to none', () => {
    const state = run([create('pending', 'E2P', 'c1'), create('fulfilled', 'E2P', 'c1', { ...nothing, message: 'QR_FAIL' })]);
    expect(machine(state, 'E2P')).toEqual({ status: 'none' });
    const failed = run([create('pending', 'E2P', 'c2'), create('rejected', 'E2P', 'c2')]);
    expect(machine(failed, 'E2P')).toEqual({ status: 'none' });
  });

  it('creating a QR for one bank makes the others reload their state (and hides a QR the server replaced)', () => {
    const wwShown = run([check('pending', 'WW', 'g1'), check('fulfilled', 'WW', 'g1', live('qr_w'), 0)]);
    const settled = { ...wwShown, E2P: { ...wwShown.E2P, stale: false }, KBANK: { ...wwShown.KBANK, stale: false } };
    const after = run([create('pending', 'KBANK', 'c1'), create('fulfilled', 'KBANK', 'c1', live('qr_k'), 0)], settled);
    expect(machine(after, 'KBANK').status).toBe('shown');
    expect(after.KBANK.stale).toBe(false);
    expect(after.WW).toEqual({ machine: { status: 'none' }, loadId: null, stale: true });
    expect(after.E2P).toEqual({ machine: { status: 'none' }, loadId: null, stale: true });
  });

  it('a refused create does not make the other banks reload', () => {
    const settled = run([qrDepositOpened(), check('pending', 'WW', 'g1'), check('pending', 'E2P', 'g2'), check('pending', 'KBANK', 'g3')]);
    const after = run([create('pending', 'KBANK', 'c1'), create('fulfilled', 'KBANK', 'c1', nothing)], settled);
    expect(after.WW.stale).toBe(false);
    expect(after.E2P.stale).toBe(false);
  });

  it('opening the modal marks every bank for a check; a check clears the mark', () => {
    const opened = run([qrDepositOpened()], { ...initialQrDepositState(), KBANK: { machine: { status: 'none' }, loadId: null, stale: false } });
    expect(opened.KBANK.stale).toBe(true);
    const checking = run([check('pending', 'KBANK', 'g1')], opened);
    expect(checking.KBANK).toEqual({ machine: { status: 'none' }, loadId: 'g1', stale: false });
  });

  it('the session ending forgets every QR', () => {
    expect(run([sessionEnded('logout')], shownAt())).toEqual(initialQrDepositState());
  });
});

describe('refused transitions and answers to other requests are ignored', () => {
  it('ignores a create answer whose requestId is not the one creating', () => {
    const creating = run([create('pending', 'KBANK', 'c1')]);
    expect(run([create('fulfilled', 'KBANK', 'other', live())], creating)).toBe(creating);
    expect(run([create('rejected', 'KBANK', 'other')], creating)).toBe(creating);
  });

  it('ignores a second create while creating or shown (one QR at a time)', () => {
    const creating = run([create('pending', 'KBANK', 'c1')]);
    expect(run([create('pending', 'KBANK', 'c2')], creating)).toBe(creating);
    const shown = shownAt();
    expect(run([create('pending', 'KBANK', 'c2')], shown)).toBe(shown);
  });

  it('ignores cancel events unless a QR is shown, and cancel answers of other requests', () => {
    const none = initialQrDepositState();
    expect(run([cancel('pending', 'KBANK', 'd1')], none)).toBe(none);
    const cancelling = run([cancel('pending', 'KBANK', 'd1')], shownAt());
    expect(run([cancel('fulfilled', 'KBANK', 'd2')], cancelling)).toBe(cancelling);
    expect(run([cancel('pending', 'KBANK', 'd3', 'qr_other')], shownAt())).toEqual(shownAt());
  });

  it('ignores a check answer that is not the latest check, and checks while creating or cancelling', () => {
    const shown = shownAt();
    const two = run([check('pending', 'KBANK', 'g1'), check('pending', 'KBANK', 'g2')], shown);
    // g1 (older) answers 'gone' late: ignored, the QR stays shown.
    expect(run([check('fulfilled', 'KBANK', 'g1', nothing, 10_000)], two)).toBe(two);
    const creating = run([create('pending', 'WW', 'c1')]);
    expect(run([check('pending', 'WW', 'g1')], creating)).toBe(creating);
    // A check started before a create answers after it: the create decided, the check is ignored.
    const raced = run([check('pending', 'E2P', 'g1'), create('pending', 'E2P', 'c1'), create('fulfilled', 'E2P', 'c1', live('qr_e'), 0)]);
    expect(run([check('fulfilled', 'E2P', 'g1', nothing, 1_000)], raced)).toBe(raced);
  });

  it('ignores the clock unless a QR is shown, and events for banks that take no QR', () => {
    const none = initialQrDepositState();
    expect(run([qrClockTicked({ now: 10 ** 12 })], none)).toEqual(none);
    expect(run([create('pending', 'SCB', 'c1')], none)).toBe(none);
    expect(run([check('pending', 'SCB', 'g1')], none)).toBe(none);
  });
});

describe('qrToReplace: creating a QR asks first when another bank has a live QR (the server would cancel it)', () => {
  const wwLive = (at = 0, expireIn = 300) => run([check('pending', 'WW', 'g1'), check('fulfilled', 'WW', 'g1', live('qr_w', expireIn, 200), at)]);

  it('a live QR at another bank -> confirmation needed, naming that bank and QR', () => {
    expect(qrToReplace(wwLive(), 'KBANK', 10_000)).toEqual({ bank: 'WW', qr: { qrcodeId: 'qr_w', svg: '<svg/>', amount: 200, expiresAt: 300_000 } });
    expect(qrToReplace(wwLive(), 'E2P', 10_000)?.bank).toBe('WW');
  });

  it('the same bank, or no live QR anywhere -> no confirmation', () => {
    expect(qrToReplace(wwLive(), 'WW', 10_000)).toBeNull();
    expect(qrToReplace(initialQrDepositState(), 'KBANK', 0)).toBeNull();
    expect(qrToReplace(shownAt(), 'KBANK', 0)).toBeNull();
    expect(qrToReplace(shownAt(), 'WW', 0)?.qr.qrcodeId).toBe('qr_1');
  });

  it('a QR whose time has run out, one being cancelled, or one that ended -> no confirmation', () => {
    expect(qrToReplace(wwLive(0, 300), 'KBANK', 300_000)).toBeNull();
    expect(qrToReplace(wwLive(0, 300), 'KBANK', 299_999)).not.toBeNull();
    const cancelling = run([endpointAction('mutation', 'cancelQr', 'pending', 'd1', { bankCode: 'WW', qrcodeId: 'qr_w' })], wwLive());
    expect(cancelling.WW.machine.status).toBe('cancelling');
    expect(qrToReplace(cancelling, 'KBANK', 0)).toBeNull();
    for (const ended of ['PAID', 'EXPIRED', 'CANCELLED', 'REVIEW'] as const) {
      const after = run([check('pending', 'WW', 'g2'), check('fulfilled', 'WW', 'g2', { ...nothing, last: { qrcodeId: 'qr_w', status: ended } }, 1_000)], wwLive());
      expect(qrToReplace(after, 'KBANK', 1_000)).toBeNull();
    }
  });

  it('after a confirmed create at another bank the replaced QR no longer asks', () => {
    const after = run([create('pending', 'KBANK', 'c1'), create('fulfilled', 'KBANK', 'c1', live('qr_k'), 0)], wwLive());
    expect(qrToReplace(after, 'KBANK', 0)).toBeNull();
    expect(qrToReplace(after, 'WW', 0)?.qr.qrcodeId).toBe('qr_k');
  });
});

describe('money under review (issue 40): shown at once, after expiry or cancel, after a reload; decided by staff', () => {
  type Notice = NonNullable<NonNullable<QrRecord['last']>['review']>;
  const notice = (over: Partial<Notice> = {}): Notice => ({ status: 'OPEN', kind: 'AMOUNT_MISMATCH', amount: 25, ref: 'D-2612-4821', ...over });
  const told = (status: 'PAID' | 'EXPIRED' | 'CANCELLED' | 'REVIEW', review: Notice, qrcodeId = 'qr_1'): QrRecord => ({ ...nothing, last: { qrcodeId, status, review } });
  const checked = (from: QrDepositState, record: QrRecord, at = 60_000) => machine(run([check('pending', 'KBANK', 'g9'), check('fulfilled', 'KBANK', 'g9', record, at)], from), 'KBANK');
  const at = (m: QrMachine): QrDepositState => ({ ...initialQrDepositState(), KBANK: { machine: m, loadId: null, stale: false } });
  const review = { kind: 'AMOUNT_MISMATCH', paid: 25, ref: 'D-2612-4821', decision: 'OPEN' as const };

  it('shown -> review with what arrived, why and the reference (a QR of 20 paid 25)', () => {
    expect(checked(shownAt(), told('REVIEW', notice()))).toEqual({ status: 'review', qrcodeId: 'qr_1', amount: 100, review });
  });

  it('shown -> review when the server says it expired or was cancelled but its money went to staff', () => {
    expect(checked(shownAt(), told('EXPIRED', notice({ kind: 'QR_EXPIRED' })))).toMatchObject({ status: 'review', review: { kind: 'QR_EXPIRED' } });
    expect(checked(shownAt(), told('CANCELLED', notice({ kind: 'QR_CANCELLED' })))).toMatchObject({ status: 'review', review: { kind: 'QR_CANCELLED' } });
  });

  it('expired or cancelled -> review when that QR was paid late', () => {
    expect(checked(at({ status: 'expired', qrcodeId: 'qr_1' }), told('EXPIRED', notice({ kind: 'QR_EXPIRED', amount: 50 })))).toEqual({
      status: 'review',
      qrcodeId: 'qr_1',
      amount: 50,
      review: { ...review, kind: 'QR_EXPIRED', paid: 50 },
    });
    expect(checked(at({ status: 'cancelled', qrcodeId: 'qr_1' }), told('CANCELLED', notice({ kind: 'QR_CANCELLED' })))).toMatchObject({ status: 'review', review: { kind: 'QR_CANCELLED' } });
  });

  it('none (the modal opened again, e.g. after a reload) -> review while staff have not decided', () => {
    expect(checked(initialQrDepositState(), told('REVIEW', notice()))).toEqual({ status: 'review', qrcodeId: 'qr_1', amount: 25, review });
  });

  it('review -> paid when staff approve it (the amount that arrived); a rejection stays review, with that decision', () => {
    const shown = at({ status: 'review', qrcodeId: 'qr_1', amount: 100, review });
    expect(checked(shown, told('PAID', notice({ status: 'APPROVED' })))).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 25 });
    expect(checked(shown, told('REVIEW', notice({ status: 'REJECTED' })))).toEqual({ status: 'review', qrcodeId: 'qr_1', amount: 100, review: { ...review, decision: 'REJECTED' } });
  });

  it('ignores what the machine does not allow: another QR, a decided review never shown, a paid QR, a busy bank', () => {
    const expired = at({ status: 'expired', qrcodeId: 'qr_1' });
    expect(checked(expired, told('EXPIRED', notice(), 'qr_2'))).toEqual({ status: 'expired', qrcodeId: 'qr_1' });
    expect(checked(initialQrDepositState(), told('PAID', notice({ status: 'APPROVED' })))).toEqual({ status: 'none' });
    expect(checked(initialQrDepositState(), told('REVIEW', notice({ status: 'REJECTED' })))).toEqual({ status: 'none' });
    const paid = at({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
    expect(checked(paid, told('PAID', notice()))).toEqual({ status: 'paid', qrcodeId: 'qr_1', amount: 100 });
    const other = at({ status: 'review', qrcodeId: 'qr_1', amount: 100, review });
    expect(checked(other, told('PAID', notice({ status: 'APPROVED' }), 'qr_2'))).toEqual({ status: 'review', qrcodeId: 'qr_1', amount: 100, review });
    const creating = run([create('pending', 'KBANK', 'c1')]);
    expect(checked(creating, told('REVIEW', notice()))).toEqual({ status: 'creating', requestId: 'c1', amount: 100 });
  });
});
