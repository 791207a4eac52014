import { slipVerify } from 'promptparse/generate';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { makeSlipPng } from './domain/slip-image';
import { bankNumberOf } from './domain/slip-qr';
import { DemoBankTransferBook } from './demo-transfer-book';
import { makeTransfer, slipFor, type ReceiverChoice } from '../../simulators/demo-bank/bank-service';
import { balanceOf, createPlayer, expectLedgerOk, multipart, type TestPlayer } from '../../test/support/deposits';
import { startEasySlipFake } from '../../test/support/fakes/easyslip-fake';
import { startSlipOkFake } from '../../test/support/fakes/slipok-fake';
import type { FakeServer, FakeTransfer } from '../../test/support/fakes/fake-server';
import { circuitsOf } from '../../adapters/http';
import { SlipOkVerifier } from '../../adapters/slip-verify';
import { createDepositAdapters } from './adapters';

/**
 * The slip journeys of slip.test.ts once per verifier (issue 45): the simulator, and EasySlip and SlipOK through their
 * contract fakes over real HTTP, with the app built as an operator would run it (SLIP_VERIFIER and the provider's
 * settings in the environment). The fakes know a transfer once the test registers it, as the real services know the
 * banks' transfers; they answer accounts and PromptPay ids masked, as slips show them.
 */
interface Setup {
  env: Record<string, string>;
  fake: (FakeServer & { add(payload: string, t: FakeTransfer): void; reset(): void }) | null;
}

const verifiers: Array<[string, () => Promise<Setup>]> = [
  ['simulator', async () => ({ env: { SLIP_VERIFIER: 'simulator' }, fake: null })],
  [
    'easyslip',
    async () => {
      const fake = await startEasySlipFake();
      return { env: { SLIP_VERIFIER: 'easyslip', EASYSLIP_API_KEY: fake.apiKey, EASYSLIP_BASE_URL: fake.url, SLIP_VERIFIER_TIMEOUT_MS: '2000' }, fake };
    },
  ],
  [
    'slipok',
    async () => {
      const fake = await startSlipOkFake();
      return { env: { SLIP_VERIFIER: 'slipok', SLIPOK_API_KEY: fake.apiKey, SLIPOK_BRANCH_ID: fake.branchId, SLIPOK_BASE_URL: fake.url, SLIP_VERIFIER_TIMEOUT_MS: '2000' }, fake };
    },
  ],
];

describe.each(verifiers)('slips verified by %s', (kind, setup) => {
  let t: TestApp;
  let s: Setup;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    s = await setup();
    for (const [k, v] of Object.entries(s.env)) {
      saved[k] = process.env[k];
      process.env[k] = v; // the deposits plugin reads its adapters' settings from the environment
    }
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
    await s.fake?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  beforeEach(() => s.fake?.reset());

  /** A transfer the demo bank made, its slip, and (for a real verifier) the transfer registered with the fake. */
  async function slip(from: TestPlayer, amount: string, receiver: ReceiverChoice = 'account', opts: { register?: boolean } = {}) {
    const made = await makeTransfer(t.app, { playerId: from.id, amount, receiver, minutesAgo: 0 });
    if (!made.ok) throw new Error(made.error);
    const input = (await slipFor(t.app, made.transRef))!;
    const payload = slipVerify({ sendingBank: input.sendingBank, transRef: input.transRef });
    const row = (await new DemoBankTransferBook(t.app.db).find(made.transRef))!;
    if (s.fake && opts.register !== false) {
      s.fake.add(payload, {
        transRef: row.transRef,
        sendingBank: row.sendingBank,
        amount: row.amountSatang / 100, // the provider's JSON number in baht
        at: row.transferredAt.toISOString(),
        sender: { bankShort: row.sender.bankCode, name: row.sender.accountName, account: row.sender.accountNo },
        receiver: { bankCode: bankNumberOf(row.receiver.bankCode ?? '') ?? '014', bankShort: row.receiver.bankCode ?? '', name: row.receiver.accountName, account: row.receiver.accountNo, promptPayId: row.receiver.promptPayId },
      });
    }
    return { ref: made.transRef, bytes: makeSlipPng(input) };
  }
  function upload(player: TestPlayer, bytes: Buffer) {
    const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: bytes }]);
    return t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...player.headers, 'content-type': body.contentType }, payload: body.payload });
  }

  test('a valid slip to the operator account is credited once; the same slip again is SLIP_REFNO_DUPLICATED', async () => {
    const p = await createPlayer(t.app);
    const sl = await slip(p, '500.50');
    const first = await upload(p, sl.bytes);
    expect([first.statusCode, first.json()]).toMatchObject([200, { message: 'SUCCESS', slip: { status: 'SUCCESS', amount: 500.5, reference: sl.ref } }]);
    expect(await balanceOf(t.app, p.id)).toBe(50050);
    const again = await upload(p, sl.bytes);
    expect([again.statusCode, again.json()]).toEqual([409, { message: 'SLIP_REFNO_DUPLICATED' }]);
    expect(await balanceOf(t.app, p.id)).toBe(50050);
    await expectLedgerOk(t.app);
  });

  test('a slip to the PromptPay id is credited (the id masked as banks show it)', async () => {
    const p = await createPlayer(t.app);
    const sl = await slip(p, '42.10', 'promptpay');
    const res = await upload(p, sl.bytes);
    expect([res.statusCode, res.json()]).toMatchObject([200, { slip: { status: 'SUCCESS', amount: 42.1 } }]);
    expect(await balanceOf(t.app, p.id)).toBe(4210);
  });

  test('paid to someone else: DEST_ACC_INVALID, nothing credited', async () => {
    const p = await createPlayer(t.app);
    const sl = await slip(p, '100', 'other');
    const res = await upload(p, sl.bytes);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'DEST_ACC_INVALID' }]);
    expect(await balanceOf(t.app, p.id)).toBe(0);
  });

  test('a transfer the verifier does not know: INVALID_SLIP, nothing credited', async () => {
    const p = await createPlayer(t.app);
    const bytes = makeSlipPng({ sendingBank: '004', transRef: `20261125${Date.now()}`.slice(0, 22), amountSatang: 10000, at: new Date() });
    const res = await upload(p, bytes);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'INVALID_SLIP' }]);
    // A real service that was not told of a demo transfer does not know it either.
    if (s.fake) {
      const sl = await slip(p, '100', 'account', { register: false });
      expect((await upload(p, sl.bytes)).json()).toEqual({ message: 'INVALID_SLIP' });
    }
    expect(await balanceOf(t.app, p.id)).toBe(0);
  });

  test('the verifier down: UNKNOW_ERROR (try again later), nothing credited, and the same slip credits once it is back', async () => {
    const p = await createPlayer(t.app);
    const sl = await slip(p, '77');
    if (s.fake) s.fake.mode = 'down';
    else t.app.deposits.sims.verifier!.failNext = 1;
    const res = await upload(p, sl.bytes);
    expect([res.statusCode, res.json()]).toEqual([422, { message: 'UNKNOW_ERROR' }]);
    expect(await balanceOf(t.app, p.id)).toBe(0);
    s.fake?.reset();
    expect((await upload(p, sl.bytes)).statusCode).toBe(200);
    expect(await balanceOf(t.app, p.id)).toBe(7700);
  });

  if (kind !== 'simulator') {
    test('the breaker is on /metrics and in the readiness registry', async () => {
      expect(circuitsOf(t.app).snapshot()).toMatchObject([{ provider: kind, state: 'closed' }]);
      const text = await t.app.metrics.registry.metrics();
      expect(text).toContain(`wallet_provider_circuit_open{provider="${kind}"} 0`);
    });
  }
});

describe('choosing the verifier', () => {
  const app = { config: { demo: false }, db: {}, metrics: undefined, log: { child: () => ({}) }, clock: { now: () => new Date() } } as unknown as Parameters<typeof createDepositAdapters>[0];
  const base = { PAYMENT_GATEWAY: 'simulator', GIFT_REDEEMER: 'simulator' };
  test('a real verifier without its key or branch refuses to start; an unknown one names the known ones', () => {
    expect(() => createDepositAdapters(app, { ...base, SLIP_VERIFIER: 'easyslip' }, {})).toThrow('EASYSLIP_API_KEY is required with SLIP_VERIFIER=easyslip');
    expect(() => createDepositAdapters(app, { ...base, SLIP_VERIFIER: 'slipok', SLIPOK_API_KEY: 'k' }, {})).toThrow('SLIPOK_BRANCH_ID is required with SLIP_VERIFIER=slipok');
    expect(() => createDepositAdapters(app, { ...base, SLIP_VERIFIER: 'rdcw' }, {})).toThrow('SLIP_VERIFIER "rdcw" is not available; known: simulator, easyslip, slipok');
    expect(() => createDepositAdapters(app, { ...base, SLIP_VERIFIER: 'easyslip', EASYSLIP_API_KEY: 'k', SLIP_VERIFIER_TIMEOUT_MS: '5' }, {})).toThrow('SLIP_VERIFIER_TIMEOUT_MS');
    expect(createDepositAdapters(app, { ...base, SLIP_VERIFIER: 'slipok', SLIPOK_API_KEY: 'k', SLIPOK_BRANCH_ID: '1' }, {}).verifier).toBeInstanceOf(SlipOkVerifier);
  });
});
