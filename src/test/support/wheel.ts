import { http, HttpResponse } from 'msw';

import { server } from './server';
import type { Coupon, SpinSetup, WheelSlice } from '../../features/wheel/wheelApi';

/** Test doubles of the prize-wheel routes (../notes/invite-wheel-contract.md). Not shipped: only tests import it. */
const COLOURS = ['#e53935', '#fdd835', '#43a047', '#1e88e5', '#8e24aa', '#fb8c00', '#00897b', '#6d4c41'];

export function slice(code: string, label: string, index = 0): WheelSlice {
  return {
    code,
    label,
    bgColor: COLOURS[index % COLOURS.length],
    textColor: '#ffffff',
    prize: { htmlDescription: { th: `<p>ได้ ${label}</p>`, la: `<p>ໄດ້ ${label}</p>`, en: `<p>You get ${label}</p><script>alert(1)</script>` } },
  };
}

/** The demo wheel's 8 slices, clockwise from the top. */
export const SLICES: WheelSlice[] = [
  ['CASH10', '10 baht'],
  ['COIN1', '1 coin'],
  ['CASH50', '50 baht'],
  ['NONE', 'Try again'],
  ['CASH100', '100 baht'],
  ['COIN2', '2 coins'],
  ['CASH20', '20 baht'],
  ['JACKPOT', 'Jackpot 1000'],
].map(([code, label], index) => slice(code, label, index));

export function coupon(id: string, extra: Partial<Coupon> = {}): Coupon {
  return {
    _id: id,
    prize: { name: { th: 'เงินสด 50', la: 'ເງິນສົດ 50', en: `Cash prize ${id}` }, label: '50 baht', htmlDescription: { en: '<p>50 baht</p>' } },
    amount: 50,
    type: 'cash',
    status: 'CLAIMABLE',
    expiresAt: '2026-12-03T05:06:07.000Z',
    createdAt: '2026-11-26T05:06:07.000Z',
    ...extra,
  };
}

interface Options {
  coins?: number;
  slices?: WheelSlice[] | null;
  /** The prize code each spin draws. */
  draws?: string;
  coupons?: Coupon[];
}

/**
 * One player's wheel kept in memory: a spin takes a coin and its prize becomes a claimable cash coupon at the top of
 * the list; a claim credits the wallet once. Counts every call.
 */
export function fakeWheelServer({ coins = 3, slices = SLICES, draws = 'CASH50', coupons = [] }: Options = {}) {
  let userCoin = coins;
  let balance = 1000;
  const list = [...coupons];
  const calls = { setup: 0, spin: 0, coupons: [] as { page: number; limit: number }[], claims: [] as unknown[], wallet: 0 };
  let refusal: { path: 'spin' | 'claim'; status: number; message: string } | null = null;
  let hold: Promise<void> | null = null;
  const setup = (): SpinSetup => ({ result: { activeSpinwheel: slices ? { name: { th: 'วงล้อ', la: 'ວົງລໍ້', en: 'Lucky wheel' }, slices } : null, userCoin } });
  const refused = (path: 'spin' | 'claim') => {
    if (refusal?.path !== path) return null;
    const { status, message } = refusal;
    refusal = null;
    return HttpResponse.json({ message }, { status });
  };
  server.use(
    http.get('/api/spinwheel/setup', () => {
      calls.setup += 1;
      return HttpResponse.json(setup());
    }),
    http.post('/api/spinwheel/spin', async () => {
      calls.spin += 1;
      if (hold) await hold;
      const no = refused('spin');
      if (no) return no;
      if (userCoin <= 0) return HttpResponse.json({ message: 'NO_COIN' }, { status: 422 });
      userCoin -= 1;
      const drawn = (slices ?? []).find((s) => s.code === draws);
      const couponId = `won-${calls.spin}`;
      list.unshift(coupon(couponId, { prize: { name: { en: drawn?.label ?? draws }, label: drawn?.label ?? draws, htmlDescription: drawn?.prize.htmlDescription ?? {} } }));
      return HttpResponse.json({ success: true, error: null, result: { code: draws, label: drawn?.label ?? draws, labels: drawn?.labels, remainingCoin: userCoin, couponId } });
    }),
    http.get('/api/spinwheel/coupon', ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      calls.coupons.push({ page, limit });
      return HttpResponse.json({ coupons: list.slice((page - 1) * limit, page * limit), total: list.length });
    }),
    http.post('/api/spinwheel/coupon/claim', async ({ request }) => {
      const body = (await request.json()) as { couponId: string };
      calls.claims.push(body);
      if (hold) await hold;
      const no = refused('claim');
      if (no) return no;
      const at = list.findIndex((c) => c._id === body.couponId && c.status === 'CLAIMABLE');
      if (at < 0) return HttpResponse.json({ message: 'NO_CLAIMABLE_COUPON' }, { status: 404 });
      list[at] = { ...list[at], status: 'CLAIMED' };
      if (list[at].type === 'cash') balance += list[at].amount;
      if (list[at].type === 'coin') userCoin += list[at].amount;
      return HttpResponse.json({ message: 'SUCCESS', coupon: list[at] });
    }),
    http.get('/api/wallet', () => {
      calls.wallet += 1;
      return HttpResponse.json({
        profile: { name: 'Demo', username: '0812345678', _id: '1', coin: userCoin },
        bankAccount: { bankAccountName: 'D', bankAccountNo: '1', bankCode: 'KBANK', bank: { nameTH: 'ก', nameEN: 'K' } },
        wallet: { amount: balance },
        invite: { amount: 0, success: 0, fail: 0 },
        slots: [],
      });
    }),
  );
  return {
    calls,
    get balance() {
      return balance;
    },
    refuseNext(path: 'spin' | 'claim', status: number, message: string) {
      refusal = { path, status, message };
    },
    /** Holds spin and claim answers until the returned function is called. */
    holdAnswers(): () => void {
      let release: () => void = () => undefined;
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        hold = null;
        release();
      };
    },
  };
}

/** A 2D context that records what is drawn (jsdom has no canvas); every canvas in the test gets it. */
export function recordCanvas() {
  const drawn: { method: string; args: unknown[] }[] = [];
  const ctx = new Proxy({ measureText: (text: string) => ({ width: text.length * 7 }) } as Record<string | symbol, unknown>, {
    get(target, key) {
      if (key in target) return target[key];
      return (...args: unknown[]) => drawn.push({ method: String(key), args });
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
  const spy = jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ctx) as never);
  return { drawn, restore: () => spy.mockRestore() };
}

/** prefers-reduced-motion as the system says (jsdom has no matchMedia). */
export function setReducedMotion(reduce: boolean | null) {
  if (reduce === null) {
    Reflect.deleteProperty(window, 'matchMedia');
    return;
  }
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: reduce && query.includes('prefers-reduced-motion: reduce'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    }),
  });
}
