import { http, HttpResponse } from 'msw';

import type { ActiveBonus, Bonus, BonusProgress, Promotion, UserBonus } from '../../features/bonus/bonusApi';

/**
 * Test doubles of the bonus and promotion routes in the wire contract's shapes (../notes/bonus-contract.md),
 * kept in memory. Not shipped: only tests import it.
 */
export const playerSession = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };

const text = (en: string) => ({ th: `${en} (th)`, la: `${en} (la)`, en });

export function bonus(code: string, over: Partial<Bonus> = {}): Bonus {
  return {
    code,
    name: text(`Bonus ${code}`),
    type: 'limit',
    maxReceived: 1,
    percent: 50,
    cap: 500,
    turnoverMultiple: 5,
    percentFail: 30,
    banners: [{ image: `/banners/${code}.png`, html: text(`<p>Banner of ${code}</p>`) }],
    notice: text('<p>Fails at %percentFail%% of the start.</p>'),
    userBonus: null,
    ...over,
  };
}

export function progress(over: Partial<BonusProgress> = {}): BonusProgress {
  return {
    code: 'WELCOME',
    name: text('Welcome bonus'),
    kind: 'bonus',
    amount: 250,
    startAmount: 750,
    turnover: 1250,
    target: 5000,
    percentFail: 30,
    failAt: 225,
    createdAt: '2026-11-26T03:00:00.000Z',
    ...over,
  };
}

interface Options {
  bonuses?: Bonus[];
  active?: ActiveBonus;
  promotions?: Promotion[];
}

type Refusal = { status: number; message: string };

/**
 * One player's bonuses as the server keeps them: activating marks the bonus active and records the receipt,
 * clearing ends it, a promotion code is found case-insensitively. `refuse*` makes the next call fail.
 */
export function fakeBonusServer({ bonuses = [], active = { status: false, type: null, progress: null }, promotions = [] }: Options = {}) {
  let list = bonuses.map((b) => ({ ...b }));
  let current: ActiveBonus = active;
  const calls = { list: 0, active: 0, activate: [] as string[], clear: 0, find: [] as string[], promote: [] as string[], refresh: 0 };
  const refusals: { activate?: Refusal; clear?: Refusal; promote?: Refusal } = {};
  let findHeld: Promise<void> | null = null;

  const activate = (code: string, kind: 'bonus' | 'promotion'): UserBonus => {
    const at = new Date().toISOString();
    const found = list.find((b) => b.code === code);
    if (found) {
      const received = [...(found.userBonus?.received ?? []), { updatedAt: at }];
      list = list.map((b) => (b.code === code ? { ...b, userBonus: { _id: `ub_${code}`, isActive: true, received } } : b));
    }
    current = { status: true, type: kind === 'promotion' ? 'promotion' : (found?.type ?? 'limit'), progress: progress({ code, kind, turnover: 0 }) };
    return { _id: `ub_${code}`, code, kind, isActive: true, amount: 250, startAmount: 750, turnover: 0, target: 5000, percentFail: 30, failAt: 225, createdAt: at, received: [{ updatedAt: at }] };
  };

  const refused = (key: keyof typeof refusals) => {
    const refusal = refusals[key];
    delete refusals[key];
    return refusal ? HttpResponse.json({ message: refusal.message }, { status: refusal.status }) : null;
  };

  const handlers = [
    http.get('/api/bonus', () => {
      calls.list += 1;
      return HttpResponse.json({ bonuses: list });
    }),
    http.get('/api/bonus/check/active', () => {
      calls.active += 1;
      return HttpResponse.json(current);
    }),
    http.get('/api/bonus/activate/:code', ({ params }) => {
      const code = String(params.code);
      calls.activate.push(code);
      const refusal = refused('activate');
      if (refusal) return refusal;
      if (current.status) return HttpResponse.json({ message: 'BONUS_ALREADY_ACTIVE' }, { status: 422 });
      if (!list.some((b) => b.code === code)) return HttpResponse.json({ message: 'NO_DATA' }, { status: 404 });
      return HttpResponse.json(activate(code, 'bonus'));
    }),
    http.get('/api/bonus/clear', () => {
      calls.clear += 1;
      const refusal = refused('clear');
      if (refusal) return refusal;
      if (!current.status) return HttpResponse.json({ message: 'NO_DATA' }, { status: 404 });
      list = list.map((b) => (b.userBonus?.isActive ? { ...b, userBonus: { ...b.userBonus, isActive: false } } : b));
      current = { status: false, type: null, progress: null };
      return HttpResponse.json({ message: 'BONUS_CLEAR' });
    }),
    http.get('/api/promotion/find/:code', async ({ params }) => {
      const code = String(params.code);
      calls.find.push(code);
      if (findHeld) await findHeld;
      const found = promotions.find((p) => p.code.toUpperCase() === code.toUpperCase());
      return found ? HttpResponse.json(found) : HttpResponse.json({ message: 'NO_PROMOTION' }, { status: 404 });
    }),
    http.get('/api/promotion/activate/:code', ({ params }) => {
      const code = String(params.code);
      calls.promote.push(code);
      const refusal = refused('promote');
      if (refusal) return refusal;
      if (!promotions.some((p) => p.code.toUpperCase() === code.toUpperCase())) return HttpResponse.json({ message: 'NO_PROMOTION' }, { status: 404 });
      return HttpResponse.json(activate(code.toUpperCase(), 'promotion'));
    }),
    http.get('/api/wallet/refresh/slot', () => {
      calls.refresh += 1;
      return HttpResponse.json({});
    }),
  ];

  return {
    handlers,
    calls,
    /** The next call of that kind answers this error. */
    refuseNext(kind: keyof typeof refusals, status: number, message: string) {
      refusals[kind] = { status, message };
    },
    /** Play moved the turnover on (as the bet feed would). */
    setTurnover(turnover: number) {
      if (current.progress) current = { ...current, progress: { ...current.progress, turnover } };
    },
    /** Searches wait for the returned release (the searching state shows meanwhile). */
    holdFind(): () => void {
      let release = () => undefined as void;
      findHeld = new Promise<void>((resolve) => {
        release = () => {
          findHeld = null;
          resolve();
        };
      });
      return release;
    },
  };
}
