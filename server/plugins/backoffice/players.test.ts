import { sql } from 'kysely';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { runAudit } from '../../ledger';
import { bearer, login, playerWithToken } from '../../test/support/accounts';
import { eventId, signedEvent } from '../../test/support/deposits';
import { createStaff } from '../../test/support/staff';
import { connected, join, listen, next, refused, socketTo } from '../../test/support/chat';

/**
 * Back office: player lookup and status (docs/staff.md "Back office: players and the audit log"), through
 * app.inject on the engine under test.
 */
jest.setTimeout(60_000);

let t: WalletTestApp;
let support: { id: number; token: string };
beforeAll(async () => {
  t = await buildWalletTestApp();
  support = await createStaff(t.app, { role: 'support', name: 'Nok Support' });
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await runAudit(t.db.db)).violations).toEqual([]);
});

type Res = { statusCode: number; json(): unknown };
const answer = (res: Res) => (res.statusCode < 400 ? `${res.statusCode} ok` : `${res.statusCode} ${(res.json() as { message?: string }).message}`);
const lookup = (phone: string, token = support.token) =>
  t.app.inject({ method: 'GET', url: `/api/staff/players?phone=${encodeURIComponent(phone)}`, headers: bearer(token) });
const setStatus = (id: number | string, payload: unknown, token = support.token) =>
  t.app.inject({ method: 'POST', url: `/api/staff/players/${id}/status`, headers: bearer(token), payload: payload as object });
/** The status changes' audit rows of a player (lookups write rows of their own: player.lookup). */
const auditRows = (playerId: number) =>
  t.db.db.selectFrom('staff_audit').selectAll().where('action', '=', 'player.status').where('subject_type', '=', 'player').where('subject_id', '=', String(playerId)).orderBy('id').execute();
const lookupRows = (subjectType: string, subjectId: string) =>
  t.db.db.selectFrom('staff_audit').select(['staff_id', 'action', 'subject_type', 'subject_id', 'detail', 'request_id']).where('action', '=', 'player.lookup').where('subject_type', '=', subjectType).where('subject_id', '=', subjectId).orderBy('id').execute();

/** A registered player (password login works) with a 100 baht QR deposit and 40 baht moved to pg. */
async function fundedPlayer() {
  const p = await playerWithToken(t.app);
  const headers = bearer(p.token);
  const id = Number(((await t.app.inject({ method: 'GET', url: '/api/wallet', headers })).json() as { profile: { _id: string } }).profile._id);
  const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers, payload: { amount: 100 } })).json() as { qrcodeId: string };
  expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr.qrcodeId, amount: 100 }))).json()).toMatchObject({ outcome: 'CREDITED' });
  expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet/activate/pg', headers }))).toBe('200 ok');
  expect(answer(await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers, payload: { from: 'WALLET', to: 'pg', amount: 40 } }))).toBe('200 ok');
  return { ...p, id, headers };
}

describe('GET /api/staff/players?phone=', () => {
  test('the player by phone: profile, balances from the ledger and the last statement lines exactly as the player sees them', async () => {
    const p = await fundedPlayer();
    const admin = await createStaff(t.app, { role: 'admin' });
    const res = await lookup(` ${p.username} `, admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { player: Record<string, unknown>; movements: unknown[] };
    const coin = await t.db.db.selectFrom('players').select('coin').where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(body.player).toEqual({
      id: p.id,
      phone: p.username,
      name: 'Somchai',
      status: 'active',
      currency: 'THB',
      wallet: 60,
      games: [{ code: 'pg', name: expect.any(String), balance: 40 }],
      coin: Number(coin.coin),
      createdAt: expect.any(String),
      bank: { code: 'SCB', accountNo: p.bankAccountNo, accountName: 'SOMCHAI JAIDEE' },
    });
    // The same numbers as the player's own wallet view.
    const own = (await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).json() as { wallet: { amount: number }; slots: { code: string; amount: number }[] };
    expect(own.wallet.amount).toBe(60);
    expect(own.slots.find((s) => s.code === 'pg')?.amount).toBe(40);
    // Movements: POST /api/statement's items, newest first (the transfer, then the deposit).
    const statement = (await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { page: 1, limit: 20 } })).json() as { statements: unknown[] };
    expect(body.movements).toEqual(statement.statements);
    expect(body.movements).toEqual([
      expect.objectContaining({ statementType: 'transfer', status: 'SUCCESS', from: 'WALLET', to: 'pg', amount: 40 }),
      expect.objectContaining({ statementType: 'deposit', status: 'SUCCESS', from: 'KBANK', to: 'WALLET', amount: 100 }),
    ]);
  });

  test('support sees the bank account number masked to its last 4 digits; payments and admin see all of it', async () => {
    const p = await fundedPlayer();
    const bankOf = async (token: string) => ((await lookup(p.username, token)).json() as { player: { bank: { accountNo: string } } }).player.bank.accountNo;
    const no = p.bankAccountNo as string;
    expect(await bankOf(support.token)).toBe(`${'*'.repeat(no.length - 4)}${no.slice(-4)}`);
    for (const role of ['payments', 'admin'] as const) expect(await bankOf((await createStaff(t.app, { role })).token)).toBe(no);
  });

  test('every lookup is audited (player.lookup), a phone nobody has too, with the request id', async () => {
    const p = await fundedPlayer();
    const res = await t.app.inject({ method: 'GET', url: `/api/staff/players?phone=${p.username}`, headers: { ...bearer(support.token), 'x-request-id': 'req-lookup-1' } });
    expect(answer(res)).toBe('200 ok');
    expect(await lookupRows('player', String(p.id))).toEqual([{ staff_id: support.id, action: 'player.lookup', subject_type: 'player', subject_id: String(p.id), detail: null, request_id: 'req-lookup-1' }]);
    expect(answer(await lookup('0899999998'))).toBe('404 NO_DATA');
    expect(await lookupRows('phone', '0899999998')).toEqual([expect.objectContaining({ staff_id: support.id, detail: '{"found":false}' })]);
    // A malformed phone is refused before any lookup: nothing to audit.
    expect(answer(await lookup('12345'))).toBe('400 INVALID_USER_INFO');
    expect(await lookupRows('phone', '12345')).toEqual([]);
  });

  test('no player data leaves without its audit row', async () => {
    const p = await fundedPlayer();
    await sql`ALTER TABLE staff_audit RENAME TO staff_audit_away`.execute(t.db.db);
    let res;
    try {
      res = await lookup(p.username);
    } finally {
      await sql`ALTER TABLE staff_audit_away RENAME TO staff_audit`.execute(t.db.db);
    }
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain(p.username);
  });

  test('only the last 20 movements', async () => {
    const p = await fundedPlayer();
    for (let i = 0; i < 10; i += 1) {
      for (const [from, to] of [['WALLET', 'pg'], ['pg', 'WALLET']]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from, to, amount: 1 } });
        expect(res.statusCode).toBe(200);
      }
    }
    const body = (await lookup(p.username)).json() as { movements: { _id: string }[] };
    const statement = (await t.app.inject({ method: 'POST', url: '/api/statement', headers: p.headers, payload: { page: 1, limit: 22 } })).json() as { total: number; statements: { _id: string }[] };
    expect(statement.total).toBe(22);
    expect(body.movements.map((m) => m._id)).toEqual(statement.statements.slice(0, 20).map((m) => m._id));
  });

  test('an unknown phone is 404 NO_DATA; a missing or malformed phone is 400 INVALID_USER_INFO', async () => {
    expect(answer(await lookup('0899999999'))).toBe('404 NO_DATA');
    expect(answer(await lookup(''))).toBe('400 INVALID_USER_INFO');
    expect(answer(await lookup('12345'))).toBe('400 INVALID_USER_INFO');
    expect(answer(await lookup('08a2345678'))).toBe('400 INVALID_USER_INFO');
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/staff/players', headers: bearer(support.token) }))).toBe('400 INVALID_USER_INFO');
  });
});

describe('POST /api/staff/players/:id/status', () => {
  test('inactive ends every session at once (old tokens 401 invalid-token, which sends the app to its login) and logins get 401 INACTIVE_USER; active lets them log in again; both audited', async () => {
    const p = await fundedPlayer();
    const second = (await login(t.app, p.username, p.password)).json() as { token: string };
    const res = await setStatus(p.id, { status: 'inactive', reason: '  Asked by the player on the phone  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: p.id, status: 'inactive' });

    // Every session ended: the next call with either old token is refused as an ended session (the player SPA goes
    // to its login on invalid-token, where the password answers INACTIVE_USER).
    for (const token of [p.token, second.token]) {
      const again = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: bearer(token) });
      expect(answer(again)).toBe('401 invalid-token');
    }
    const open = await t.db.db.selectFrom('sessions').select('id').where('player_id', '=', p.id).where('revoked_at', 'is', null).execute();
    expect(open).toEqual([]);
    expect(answer(await login(t.app, p.username, p.password))).toBe('401 INACTIVE_USER');
    expect((await lookup(p.username)).json()).toMatchObject({ player: { status: 'inactive', wallet: 60 } });

    const rows = await auditRows(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ staff_id: support.id, action: 'player.status', subject_type: 'player', subject_id: String(p.id), reason: 'Asked by the player on the phone', request_id: res.headers['x-request-id'] });
    expect(JSON.parse(String(rows[0].detail))).toEqual({ from: 'active', to: 'inactive' });

    // Setting it again changes nothing and writes nothing.
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'again' }))).toBe('200 ok');
    expect(await auditRows(p.id)).toHaveLength(1);

    expect((await setStatus(p.id, { status: 'active', reason: 'Identity confirmed' })).json()).toEqual({ id: p.id, status: 'active' });
    expect(answer(await login(t.app, p.username, p.password))).toBe('200 ok');
    // The ended sessions stay ended.
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }))).toBe('401 invalid-token');
    const after = await auditRows(p.id);
    expect(after).toHaveLength(2);
    expect(JSON.parse(String(after[1].detail))).toEqual({ from: 'inactive', to: 'active' });
  });

  test("inactive also drops the player's open sockets (chat and wallet alike), and their old token cannot connect again", async () => {
    const p = await fundedPlayer();
    const url = await listen(t.app);
    const socket = socketTo(url, { token: p.token });
    try {
      await connected(socket);
      expect(await join(socket, t.app.realtime.roomOfPlayer(p.id))).toEqual({ ok: true });
      // A second socket that joined no chat room (the wallet's pushes) goes too, at once.
      const wallet = socketTo(url, { token: p.token });
      await connected(wallet);
      const dropped = next<string>(socket, 'disconnect');
      const walletDropped = next<string>(wallet, 'disconnect');
      expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'sockets' }))).toBe('200 ok');
      expect(await dropped).toBe('io server disconnect');
      // Well before the timed session check (SOCKET_SESSION_CHECK_MS, 5 s), which would find it too.
      const late = new Promise<string>((resolve) => setTimeout(() => resolve('still connected'), 2000));
      expect(await Promise.race([walletDropped, late])).toBe('io server disconnect');
      wallet.disconnect();
      const again = socketTo(url, { token: p.token });
      try {
        expect(await refused(again)).toBe('invalid-token');
      } finally {
        again.disconnect();
      }
    } finally {
      socket.disconnect();
    }
  });

  test('a session that was not ended (status written by hand) still answers 401 INACTIVE_USER while the player is inactive', async () => {
    const p = await fundedPlayer();
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('id', '=', p.id).execute();
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }))).toBe('401 INACTIVE_USER');
    await t.db.db.updateTable('players').set({ status: 'active' }).where('id', '=', p.id).execute();
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }))).toBe('200 ok');
  });

  test('refusals write nothing: bad status, missing or too long reason, unknown player, a gone player', async () => {
    const p = await fundedPlayer();
    expect(answer(await setStatus(p.id, { status: 'gone', reason: 'x' }))).toBe('400 INVALID_STATUS');
    expect(answer(await setStatus(p.id, { status: 'ACTIVE', reason: 'x' }))).toBe('400 INVALID_STATUS');
    expect(answer(await setStatus(p.id, { reason: 'x' }))).toBe('400 INVALID_STATUS');
    expect(answer(await setStatus(p.id, { status: 'inactive' }))).toBe('400 REASON_REQUIRED');
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: '   ' }))).toBe('400 REASON_REQUIRED');
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 42 }))).toBe('400 REASON_REQUIRED');
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'x'.repeat(501) }))).toBe('400 REASON_REQUIRED');
    expect(answer(await setStatus(999_999_999, { status: 'inactive', reason: 'x' }))).toBe('404 NO_DATA');
    expect(answer(await setStatus('abc', { status: 'inactive', reason: 'x' }))).toBe('404 NO_DATA');
    expect(await auditRows(p.id)).toEqual([]);
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }))).toBe('200 ok');

    await t.db.db.updateTable('players').set({ status: 'gone' }).where('id', '=', p.id).execute();
    expect(answer(await setStatus(p.id, { status: 'active', reason: 'undo' }))).toBe('409 PLAYER_GONE');
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'close' }))).toBe('409 PLAYER_GONE');
    expect(await auditRows(p.id)).toEqual([]);
    expect((await lookup(p.username)).json()).toMatchObject({ player: { status: 'gone' } });
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'x'.repeat(500) }))).toBe('409 PLAYER_GONE');
  });

  test('the audit row and the change land together: a failing audit write leaves the player and their sessions as they were', async () => {
    const p = await fundedPlayer();
    // The audit write fails (its table is out of the way for a moment): the whole change is undone.
    await sql`ALTER TABLE staff_audit RENAME TO staff_audit_away`.execute(t.db.db);
    try {
      expect((await setStatus(p.id, { status: 'inactive', reason: 'x' })).statusCode).toBe(500);
    } finally {
      await sql`ALTER TABLE staff_audit_away RENAME TO staff_audit`.execute(t.db.db);
    }
    expect((await lookup(p.username)).json()).toMatchObject({ player: { status: 'active' } });
    expect(answer(await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }))).toBe('200 ok');
    expect(await auditRows(p.id)).toEqual([]);
  });
});

describe('support lifts only its own inactivation', () => {
  test('a player set inactive by payments or an admin: support gets 403 REACTIVATE_NOT_ALLOWED and nothing changes; they may', async () => {
    for (const role of ['payments', 'admin'] as const) {
      const p = await fundedPlayer();
      const locker = await createStaff(t.app, { role });
      expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'payment hold' }, locker.token))).toBe('200 ok');
      expect(answer(await setStatus(p.id, { status: 'active', reason: 'player asked' }))).toBe('403 REACTIVATE_NOT_ALLOWED');
      expect((await lookup(p.username)).json()).toMatchObject({ player: { status: 'inactive' } });
      expect(await auditRows(p.id)).toHaveLength(1);
      expect(answer(await login(t.app, p.username, p.password))).toBe('401 INACTIVE_USER');
      expect(answer(await setStatus(p.id, { status: 'active', reason: 'hold lifted' }, locker.token))).toBe('200 ok');
    }
  });

  test("support may set active a player support set inactive; not one made inactive outside the console (no audit row)", async () => {
    const p = await fundedPlayer();
    const other = await createStaff(t.app, { role: 'support' });
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'asked by phone' }, other.token))).toBe('200 ok');
    expect(answer(await setStatus(p.id, { status: 'active', reason: 'identity confirmed' }))).toBe('200 ok');
    const q = await fundedPlayer();
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('id', '=', q.id).execute();
    expect(answer(await setStatus(q.id, { status: 'active', reason: 'x' }))).toBe('403 REACTIVATE_NOT_ALLOWED');
    // Support may still set anyone inactive.
    const r = await fundedPlayer();
    expect(answer(await setStatus(r.id, { status: 'inactive', reason: 'x' }))).toBe('200 ok');
  });
});

describe('who may call them', () => {
  test('staff of every role may look up and set status; a player token, no token and a bad token are 401', async () => {
    const p = await fundedPlayer();
    for (const role of ['support', 'payments', 'admin'] as const) {
      const s = await createStaff(t.app, { role });
      expect([role, answer(await lookup(p.username, s.token))]).toEqual([role, '200 ok']);
    }
    const admin = await createStaff(t.app, { role: 'admin' });
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'admin check' }, admin.token))).toBe('200 ok');
    const payments = await createStaff(t.app, { role: 'payments' });
    expect(answer(await setStatus(p.id, { status: 'active', reason: 'payments check' }, payments.token))).toBe('200 ok');
    expect((await auditRows(p.id)).map((r) => r.staff_id)).toEqual([admin.id, payments.id]);

    const fresh = (await login(t.app, p.username, p.password)).json() as { token: string };
    expect(answer(await lookup(p.username, fresh.token))).toBe('401 invalid-token');
    expect(answer(await setStatus(p.id, { status: 'inactive', reason: 'x' }, fresh.token))).toBe('401 invalid-token');
    expect(answer(await t.app.inject({ method: 'GET', url: `/api/staff/players?phone=${p.username}` }))).toBe('401 UNAUTHORIZED');
    expect(answer(await lookup(p.username, 'not-a-token'))).toBe('401 invalid-token');
    expect(await auditRows(p.id)).toHaveLength(2);
  });

  test('a staff token cannot call player money routes (transfer, withdraw): 401, and no money moves', async () => {
    const p = await fundedPlayer();
    const staff = await createStaff(t.app, { role: 'admin' });
    const money: [string, object][] = [
      ['/api/wallet/transfer', { from: 'WALLET', to: 'pg', amount: 10 }],
      ['/api/wallet/transferAll', { to: 'pg' }],
      ['/api/wallet/withdrawAll', { amount: 10 }],
      ['/api/wallet/withdraw', { amount: 10 }],
    ];
    for (const [url, payload] of money) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(staff.token), payload });
      expect([url, answer(res)]).toEqual([url, '401 invalid-token']);
    }
    expect((await lookup(p.username)).json()).toMatchObject({ player: { wallet: 60, games: [{ code: 'pg', balance: 40 }] } });
  });
});
