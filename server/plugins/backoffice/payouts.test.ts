import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { walletBalance } from '../../ledger';
import { nowIso } from '../../db';
import { PayoutSimulator, type PayoutAdapter } from '../../adapters/payouts';
import { expectLedgerOk } from '../../test/support/deposits';
import { createStaff } from '../../test/support/staff';
import { providerStatus } from './service';

/**
 * Payouts in progress (docs/staff.md "Back office: payments under review and payouts"): the overdue list with the
 * gateway's status, settle and fail through the wallet's settlePayout, on the engine under test via app.inject.
 * The payout simulator settles only when told (delayMs null), so payouts stay in progress until a test acts.
 */
let t: WalletTestApp;
let staff: { id: number; headers: { authorization: string } };
beforeAll(async () => {
  t = await buildWalletTestApp();
  const s = await createStaff(t.app, { role: 'payments' });
  staff = { id: s.id, headers: { authorization: `Bearer ${s.token}` } };
});
afterEach(async () => {
  await expectLedgerOk(t.app);
});
afterAll(() => t.close());

type Headers = { authorization: string };
const list = (query = '', headers: Headers = staff.headers) => t.app.inject({ method: 'GET', url: `/api/staff/payouts${query}`, headers });
const act = (id: string, action: 'settle' | 'fail', payload: unknown = { reason: 'confirmed with the bank' }, headers: Headers = staff.headers) =>
  t.app.inject({ method: 'POST', url: `/api/staff/payouts/${id}/${action}`, headers, payload: payload as object });
const auditOf = (subjectId: string) => t.app.db.selectFrom('staff_audit').selectAll().where('subject_id', '=', subjectId).execute();
const withdrawal = (id: string) => t.app.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const statementOf = (id: string) => t.app.db.selectFrom('statements').selectAll().where('ref_type', '=', 'withdrawal').where('ref_id', '=', id).executeTakeFirstOrThrow();

/**
 * The gateway decides a payout (sent at once by this simulator, so never cancellable) without its webhook getting
 * through: staff may fail a payout only once the gateway says it failed (payouts-provider.test.ts).
 */
async function gatewayFails(id: string) {
  const handler = (wid: string, ok: boolean, reason?: string) => t.app.wallet.settlePayout(wid, ok, reason);
  t.payouts.setSettledHandler(async () => {
    throw new Error('webhook not acknowledged');
  });
  try {
    await expect(t.payouts.settle(id, false)).rejects.toThrow('webhook not acknowledged');
  } finally {
    t.payouts.setSettledHandler(handler);
  }
}

/** A player with `balance` baht who asked to withdraw `amount`, requested `minutesAgo` minutes ago. */
async function payout(amount: number, minutesAgo = 45, balance = 1000) {
  const p = await t.player({ balance: balance * 100 });
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: p.headers, payload: { amount } });
  expect(res.statusCode).toBe(200);
  const id = res.json().withdrawalId as string;
  await t.app.db.updateTable('withdrawals').set({ created_at: nowIso(new Date(Date.now() - minutesAgo * 60_000)) }).where('id', '=', id).execute();
  return { id, player: p };
}

describe('the list', () => {
  test('overdue by default (past PAYOUT_EXPECTED_MINUTES, 30), every payout in progress with overdue=0, each with the gateway status', async () => {
    const late = await payout(150, 45);
    const fresh = await payout(120, 5);
    const res = await list();
    expect(res.statusCode).toBe(200);
    const ids = res.json().payouts.map((x: { id: string }) => x.id);
    expect(ids).toContain(late.id);
    expect(ids).not.toContain(fresh.id);
    const row = res.json().payouts.find((x: { id: string }) => x.id === late.id);
    const w = await withdrawal(late.id);
    expect(row).toEqual({
      id: late.id,
      player: { id: late.player.id, phone: expect.any(String), name: expect.any(String) },
      amount: 150,
      currency: 'THB',
      bankCode: w.bank_code,
      bankAccountNo: w.bank_account_no,
      bankAccountName: w.bank_account_name,
      requestedAt: w.created_at,
      ageMinutes: 45,
      providerStatus: 'PENDING',
    });
    expect((await list('?overdue=1')).json().payouts.map((x: { id: string }) => x.id)).toEqual(ids);
    const all = (await list('?overdue=0')).json().payouts.map((x: { id: string }) => x.id);
    expect(all).toEqual(expect.arrayContaining([late.id, fresh.id]));
    expect((await list('?overdue=yes')).statusCode).toBe(400);
    // Settled payouts leave the list.
    expect((await act(late.id, 'settle')).statusCode).toBe(200);
    expect((await list()).json().payouts.map((x: { id: string }) => x.id)).not.toContain(late.id);
  });

  test("the gateway's word: SUCCEEDED when it paid but its webhook did not get through; UNKNOWN when it fails to answer", async () => {
    const paid = await payout(200);
    const refused = await payout(210);
    const handler = (id: string, ok: boolean, reason?: string) => t.app.wallet.settlePayout(id, ok, reason);
    t.payouts.setSettledHandler(async () => {
      throw new Error('webhook not acknowledged');
    });
    try {
      await expect(t.payouts.settle(paid.id, true)).rejects.toThrow('webhook not acknowledged');
      await expect(t.payouts.settle(refused.id, false)).rejects.toThrow('webhook not acknowledged');
    } finally {
      t.payouts.setSettledHandler(handler);
    }
    expect((await withdrawal(paid.id)).status).toBe('IN_PROGRESS');
    const statusOf = async (id: string) => (await list()).json().payouts.find((x: { id: string }) => x.id === id)?.providerStatus;
    expect(await statusOf(paid.id)).toBe('SUCCEEDED');
    expect(await statusOf(refused.id)).toBe('FAILED');

    const real = t.payouts.getPayoutStatus;
    t.payouts.getPayoutStatus = async () => {
      throw new Error('gateway down');
    };
    try {
      expect(await statusOf(paid.id)).toBe('UNKNOWN');
    } finally {
      t.payouts.getPayoutStatus = real;
    }
    await act(paid.id, 'settle');
    await act(refused.id, 'fail');
  });

  test('providerStatus gives UNKNOWN when the gateway does not answer in time, and its answer when it does', async () => {
    const silent: PayoutAdapter = { requestPayout: async () => ({ status: 'accepted' }), getPayoutStatus: () => new Promise(() => undefined), cancelPayout: async () => 'UNKNOWN' };
    const started = Date.now();
    expect(await providerStatus(silent, 'w1', 50)).toBe('UNKNOWN');
    expect(Date.now() - started).toBeLessThan(2000);
    const quick: PayoutAdapter = { requestPayout: async () => ({ status: 'accepted' }), getPayoutStatus: async () => 'SUCCEEDED', cancelPayout: async () => 'NOT_CANCELLABLE' };
    expect(await providerStatus(quick, 'w1', 50)).toBe('SUCCEEDED');
  });
});

describe('settle and fail', () => {
  test('settle: the payout is paid (SUCCESS), its line too, with the audit row; a second decision is 409 PAYOUT_SETTLED', async () => {
    const { id, player } = await payout(300);
    const res = await act(id, 'settle', { reason: ' bank confirmed transfer 123 ' });
    expect([res.statusCode, res.json()]).toEqual([200, { id, status: 'SUCCESS' }]);
    expect((await withdrawal(id)).status).toBe('SUCCESS');
    expect((await statementOf(id)).status).toBe('SUCCESS');
    expect(await walletBalance(t.app.db, player.id)).toBe(700_00);
    expect(await auditOf(id)).toMatchObject([{ staff_id: staff.id, action: 'payout.settle', subject_type: 'payout', reason: 'bank confirmed transfer 123', request_id: res.headers['x-request-id'] }]);
    for (const action of ['settle', 'fail'] as const) {
      const again = await act(id, action);
      expect([again.statusCode, again.json()]).toEqual([409, { message: 'PAYOUT_SETTLED' }]);
    }
    expect(await walletBalance(t.app.db, player.id)).toBe(700_00);
    expect(await auditOf(id)).toHaveLength(1);
  });

  test('fail: the money is back in the wallet, the line FAILED, the reason kept; settle or fail again is 409', async () => {
    const { id, player } = await payout(400);
    expect(await walletBalance(t.app.db, player.id)).toBe(600_00);
    await gatewayFails(id);
    const res = await act(id, 'fail', { reason: 'account closed at the bank' });
    expect([res.statusCode, res.json()]).toEqual([200, { id, status: 'FAILED' }]);
    expect(await walletBalance(t.app.db, player.id)).toBe(1000_00);
    expect(await withdrawal(id)).toMatchObject({ status: 'FAILED', failure_reason: 'account closed at the bank' });
    expect((await statementOf(id)).status).toBe('FAILED');
    expect(await auditOf(id)).toMatchObject([{ action: 'payout.fail', reason: 'account closed at the bank' }]);
    expect((await act(id, 'fail')).statusCode).toBe(409);
    expect((await act(id, 'settle')).statusCode).toBe(409);
    expect(await walletBalance(t.app.db, player.id)).toBe(1000_00);
  });

  test('settle and fail at once: one wins, the other is 409, one audit row, money where the winner says', async () => {
    const { id, player } = await payout(250);
    await gatewayFails(id);
    const answers = await Promise.all([act(id, 'settle'), act(id, 'fail')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.statusCode === 200)!.json().status;
    expect(await walletBalance(t.app.db, player.id)).toBe(won === 'SUCCESS' ? 750_00 : 1000_00);
    expect(await auditOf(id)).toHaveLength(1);
  });

  test('fail while the gateway says the payout is pending is 409 PAYOUT_NOT_FAILED; its later result counts', async () => {
    const { id, player } = await payout(100);
    const res = await act(id, 'fail');
    expect([res.statusCode, res.json()]).toEqual([409, { message: 'PAYOUT_NOT_FAILED' }]);
    expect(await auditOf(id)).toEqual([]);
    await t.payouts.settle(id, true);
    expect((await withdrawal(id)).status).toBe('SUCCESS');
    expect(await walletBalance(t.app.db, player.id)).toBe(900_00);
  });

  test('404 NO_DATA, 400 REASON_REQUIRED (nothing written), support 403, a player token 401', async () => {
    const { id, player } = await payout(130);
    for (const action of ['settle', 'fail'] as const) {
      const missing = await act('wd_nope', action);
      expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'NO_DATA' }]);
      for (const body of [{}, { reason: '' }, { reason: ' \n ' }, { reason: 42 }, { reason: 'y'.repeat(501) }]) {
        const res = await act(id, action, body);
        expect([res.statusCode, res.json()]).toEqual([400, { message: 'REASON_REQUIRED' }]);
      }
    }
    const support = await createStaff(t.app, { role: 'support' });
    const sh = { authorization: `Bearer ${support.token}` };
    expect([(await list('', sh)).statusCode, (await list('', sh)).json()]).toEqual([403, { message: 'UNAUTHORIZED' }]);
    expect((await act(id, 'fail', undefined, sh)).statusCode).toBe(403);
    expect((await list('', player.headers)).statusCode).toBe(401);
    expect((await act(id, 'settle', undefined, player.headers)).statusCode).toBe(401);
    expect((await withdrawal(id)).status).toBe('IN_PROGRESS');
    expect(await auditOf(id)).toEqual([]);
    const admin = await createStaff(t.app, { role: 'admin' });
    expect((await act(id, 'settle', undefined, { authorization: `Bearer ${admin.token}` })).statusCode).toBe(200);
  });
});

describe('the simulator knows its payouts', () => {
  test('UNKNOWN for an id it never took, PENDING until it settles, then the outcome it decided when it accepted', async () => {
    const sim = new PayoutSimulator({ delayMs: 20, failureRate: 1 });
    const settled: string[] = [];
    sim.setSettledHandler(async (id, ok) => {
      settled.push(`${id}:${ok}`);
    });
    try {
      expect(await sim.getPayoutStatus('w_x')).toBe('UNKNOWN');
      await sim.requestPayout({ withdrawalId: 'w_1', amount: 100, currency: 'THB', bankCode: 'KBANK', bankAccountNo: '1', bankAccountName: 'A' });
      expect(await sim.getPayoutStatus('w_1')).toBe('PENDING');
      while (settled.length === 0) await new Promise((r) => setImmediate(r));
      expect(settled).toEqual(['w_1:false']);
      expect(await sim.getPayoutStatus('w_1')).toBe('FAILED');
    } finally {
      sim.close();
    }
  });
});
