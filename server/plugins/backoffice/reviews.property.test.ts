import fc from 'fast-check';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { runAudit, walletBalance } from '../../ledger';
import { createPlayer, eventId, signedEvent } from '../../test/support/deposits';
import { createStaff } from '../../test/support/staff';

/**
 * Any sequence of approvals, rejections and repeated or simultaneous decisions over random payments under review
 * credits exactly the reviews that ended APPROVED, each once, and leaves the ledger audit clean
 * (docs/staff.md "Back office: payments under review and payouts").
 */
let t: WalletTestApp;
let staff: { authorization: string }[];
beforeAll(async () => {
  t = await buildWalletTestApp();
  staff = [];
  for (const role of ['payments', 'admin'] as const) staff.push({ authorization: `Bearer ${(await createStaff(t.app, { role })).token}` });
});
afterAll(() => t.close());

type Action = 'approve' | 'reject';
type Cmd = { i: number; actions: Action[]; together: boolean };
/** A payment: a QR of 1 baht paid with `paid` satang (AMOUNT_MISMATCH), or money for an unknown reference. */
type Payment = { paid: number; unknown: boolean };

const payment: fc.Arbitrary<Payment> = fc.record({ paid: fc.integer({ min: 1, max: 5_000_00 }).filter((n) => n !== 1_00), unknown: fc.boolean() });
const cmd: fc.Arbitrary<Cmd> = fc.record({
  i: fc.nat({ max: 3 }),
  actions: fc.array(fc.constantFrom<Action>('approve', 'reject'), { minLength: 1, maxLength: 3 }),
  together: fc.boolean(),
});

test('decisions never credit more than the approved reviews, each once, and the audit stays clean', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(payment, { minLength: 1, maxLength: 4 }), fc.array(cmd, { minLength: 1, maxLength: 8 }), async (payments, cmds) => {
      const p = await createPlayer(t.app);
      const ids: string[] = [];
      for (const pay of payments) {
        const baht = pay.paid / 100;
        if (pay.unknown) {
          const ref = `gone_${eventId()}`;
          expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: ref, amount: baht }))).json().outcome).toBe('UNKNOWN_REFERENCE');
          ids.push((await t.app.db.selectFrom('payment_reviews').select('id').where('reference', '=', ref).executeTakeFirstOrThrow()).id);
        } else {
          const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: 1 } })).json().qrcodeId;
          expect((await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: baht }))).json().outcome).toBe('AMOUNT_MISMATCH');
          ids.push((await t.app.db.selectFrom('payment_reviews').select('id').where('reference', '=', qr).executeTakeFirstOrThrow()).id);
        }
      }
      const decided = new Map<string, Action>();
      for (const c of cmds) {
        const id = ids[c.i % ids.length];
        const send = (a: Action, k: number) => t.app.inject({ method: 'POST', url: `/api/staff/reviews/${id}/${a}`, headers: staff[k % 2], payload: { reason: `property ${a}` } });
        const answers = c.together ? await Promise.all(c.actions.map(send)) : await c.actions.reduce(async (acc, a, k) => [...(await acc), await send(a, k)], Promise.resolve([] as Awaited<ReturnType<typeof send>>[]));
        for (const [k, res] of answers.entries()) {
          const code = res.statusCode;
          if (code === 200) {
            // A review is decided once: never a second 200 for it.
            expect(decided.has(id)).toBe(false);
            decided.set(id, c.actions[k]);
          } else {
            expect([code, res.json().message]).toEqual(code === 409 ? [409, 'REVIEW_DECIDED'] : [422, 'REVIEW_NO_PLAYER']);
          }
        }
      }
      const rows = await t.app.db.selectFrom('payment_reviews').selectAll().where('id', 'in', ids).execute();
      let approved = 0;
      for (const r of rows) {
        expect(r.status).toBe(decided.get(r.id) === 'approve' ? 'APPROVED' : decided.get(r.id) === 'reject' ? 'REJECTED' : 'OPEN');
        if (r.status === 'APPROVED') approved += Number(r.amount);
        const credits = await t.app.db.selectFrom('journal_entries').select('id').where('reference', '=', `deposit:review:${r.id}`).execute();
        expect(credits).toHaveLength(r.status === 'APPROVED' ? 1 : 0);
        expect(await t.app.db.selectFrom('staff_audit').select('id').where('subject_id', '=', r.id).execute()).toHaveLength(r.status === 'OPEN' ? 0 : 1);
      }
      expect(await walletBalance(t.app.db, p.id)).toBe(approved);
      const audit = await runAudit(t.app.db);
      expect(audit.violations).toEqual([]);
    }),
    { numRuns: 15 },
  );
}, 120_000);
