import { api } from '../../core/api';
import type { Banner } from '../../core/bannerApi';
import type { LocalizedText } from '../../lib/localized';

/** The receive limit's period (spec §4): all time, the current calendar day, the current calendar week. */
export type BonusType = 'limit' | 'day' | 'week';

/** One time this player received a bonus. */
export interface Received {
  updatedAt: string;
}

/** Spec §3 Bonus as GET /api/bonus lists it (docs: ../notes/bonus-contract.md). Amounts in baht. */
export interface Bonus {
  code: string;
  name: LocalizedText;
  type: BonusType;
  maxReceived: number;
  percent: number;
  cap: number;
  turnoverMultiple: number;
  percentFail: number;
  banners: Banner[];
  /** HTML; may hold the placeholder %percentFail%. */
  notice: LocalizedText;
  userBonus: null | { _id: string; isActive: boolean; received: Received[] };
}

/** The player's bonus record an activation answers. */
export interface UserBonus {
  _id: string;
  code: string;
  kind: 'bonus' | 'promotion';
  isActive: boolean;
  amount: number;
  startAmount: number;
  turnover: number;
  target: number;
  percentFail: number;
  failAt: number;
  createdAt: string;
  received: Received[];
}

// The active bonus's endpoint and types are shared with the wallet's screens (app/activeBonusApi.ts).
export type { ActiveBonus, BonusProgress } from '../../core/activeBonusApi';
export { useGetActiveBonusQuery } from '../../core/activeBonusApi';

/** Spec §3 Promotion found. */
export interface Promotion {
  code: string;
  percentFail: number;
  description: LocalizedText;
}

const BONUS_LIST = { type: 'Bonus', id: 'LIST' } as const;
const BONUS_ACTIVE = { type: 'Bonus', id: 'ACTIVE' } as const;
/** What taking or dropping a bonus changes: the list (received dates), the active state, the money, the statement. */
const BONUS_CHANGED = [BONUS_LIST, BONUS_ACTIVE, 'Wallet', 'Statement'] as const;

export const bonusApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBonuses: build.query<{ bonuses: Bonus[] }, void>({
      query: () => '/api/bonus',
      // A bonus that finishes or fails with play stops being the current card: reloaded with the wallet too.
      providesTags: [BONUS_LIST, 'Wallet'],
      // Spec §8: a failed bonus load only hides the loader.
      extraOptions: { silent: true },
    }),
    activateBonus: build.mutation<UserBonus, string>({
      query: (code) => `/api/bonus/activate/${encodeURIComponent(code)}`,
      // Spec §8: the bonus modal shows the failure in an error alert.
      extraOptions: { silent: true },
      invalidatesTags: (result) => (result ? [...BONUS_CHANGED] : []),
    }),
    /** GET /api/bonus/clear answers BONUS_CLEAR; a failure shows in a danger dialog (spec §8). */
    clearBonus: build.mutation<{ message: string }, void>({
      query: () => '/api/bonus/clear',
      extraOptions: { silent: true },
      invalidatesTags: (result) => (result ? [...BONUS_CHANGED] : []),
    }),
    /** The code is upper-cased by the caller (spec §5); each search asks the server again. */
    findPromotion: build.query<Promotion, string>({
      query: (code) => `/api/promotion/find/${encodeURIComponent(code)}`,
      // Not found and other failures show in the promotion modal.
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
    activatePromotion: build.mutation<UserBonus, string>({
      query: (code) => `/api/promotion/activate/${encodeURIComponent(code)}`,
      extraOptions: { silent: true },
      invalidatesTags: (result) => (result ? [...BONUS_CHANGED] : []),
    }),
  }),
});

// The activations, the clear and the promotion search are made by bonusStore.ts's thunks, not by hooks.
export const { useGetBonusesQuery } = bonusApi;
