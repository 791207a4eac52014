import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import { walletAnswerBytes } from './answer-json';
import { walletResponse } from './schemas';
import type { SlotView, WalletView } from './service';

/** What Fastify would send for the 200 schema (routes.ts sends walletAnswerBytes' bytes instead). */
const bySchema = fastJson(walletResponse as unknown as Parameters<typeof fastJson>[0]);

// Any text: Thai, Lao, emoji (surrogate pairs), lone surrogates, quotes, backslashes, control characters.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const figure = fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(-0));
const maybe = fc.option(text, { nil: null });

const slot = (code: string): fc.Arbitrary<SlotView> =>
  fc.record({
    code: fc.constant(code),
    name: text,
    category: fc.constantFrom('slot' as const, 'sport' as const, 'lotto' as const),
    isActive: fc.boolean(),
    amount: figure,
    ftWalletSlot: figure,
    logo: text,
    background: text,
    web: maybe,
    android: maybe,
    ios: maybe,
    seamless: fc.boolean(),
  });

const view: fc.Arbitrary<WalletView> = fc.record({
  profile: fc.record({ name: text, username: text, _id: text, coin: figure }),
  bankAccount: fc.record({ bankAccountName: text, bankAccountNo: text, bankCode: text, bank: fc.record({ nameTH: text, nameEN: text }) }),
  wallet: fc.record({ amount: figure }),
  invite: fc.record({ amount: figure, success: fc.nat(), fail: fc.nat() }),
  // A few game codes only, so that one code is seen again with other game fields (its kept fragments must not be reused).
  slots: fc.uniqueArray(fc.constantFrom('pg', 'joker', 'ไทย', 'a"b'), { maxLength: 4 }).chain((codes) => fc.tuple(...codes.map(slot))),
});

describe('the wallet answer as bytes (answer-json.ts)', () => {
  it('says what the 200 schema serializer says, in ASCII only', () => {
    fc.assert(
      fc.property(view, (v) => {
        const bytes = walletAnswerBytes(v);
        expect(bytes.every((b) => b < 0x7f)).toBe(true);
        expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(bySchema(v)));
      }),
      { numRuns: 500 },
    );
  });

  it('shows a game as it is now after its fields change', () => {
    const game: SlotView = { code: 'pg', name: 'PG Soft', category: 'slot', isActive: false, amount: 0, ftWalletSlot: 1, logo: '/a.png', background: '/b.svg', web: null, android: null, ios: null, seamless: false };
    const base: WalletView = {
      profile: { name: 'n', username: 'u', _id: '1', coin: 0 },
      bankAccount: { bankAccountName: 'x', bankAccountNo: '1', bankCode: 'SCB', bank: { nameTH: 'ไทยพาณิชย์', nameEN: 'SCB' } },
      wallet: { amount: 12.34 },
      invite: { amount: 0, success: 0, fail: 0 },
      slots: [game],
    };
    const first = JSON.parse(walletAnswerBytes(base).toString());
    expect(first.slots[0]).toEqual(game);
    for (const change of [{ name: 'PG ใหม่' }, { logo: '/c.png' }, { ftWalletSlot: 0.5 }, { ios: 'https://i' }, { category: 'lotto' as const }]) {
      const changed = { ...game, ...change, isActive: true, amount: 5, web: '/api/autoLogin/pg/u' };
      expect(JSON.parse(walletAnswerBytes({ ...base, slots: [changed] }).toString()).slots[0]).toEqual(changed);
    }
    // Issue 42: the game turned seamless (and back): its idle slot, kept per game, must say so, and then no longer.
    const seamless = { ...game, seamless: true };
    expect(JSON.parse(walletAnswerBytes({ ...base, slots: [seamless] }).toString()).slots[0]).toEqual(seamless);
    expect(JSON.parse(walletAnswerBytes({ ...base, slots: [game] }).toString()).slots[0]).toEqual(game);
  });

  it('refuses a figure JSON cannot carry rather than send it as null', () => {
    const v = fc.sample(view, { numRuns: 1, seed: 1 })[0];
    expect(() => walletAnswerBytes({ ...v, wallet: { amount: NaN } })).toThrow(/not a number/);
    expect(() => walletAnswerBytes({ ...v, wallet: { amount: Infinity } })).toThrow(/not a number/);
  });
});
