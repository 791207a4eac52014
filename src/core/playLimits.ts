import { api } from './api';
import type { RootState } from '../app/store';

/**
 * GET /api/limits (docs/client.md "Play limits"): app-wide because the home page (restriction refusals), the
 * banners (hidden during a restriction) and the user layout (reality check) read it besides the limits page.
 * The limits feature injects the mutations and the history next to its page (features/limits/limitsApi.ts).
 */
export const LIMIT_KINDS = ['depositDay', 'depositWeek', 'depositMonth', 'lossDay', 'lossWeek', 'lossMonth', 'sessionMinutes'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
/** The kinds with a usage figure (money, in baht); the session limit is in minutes. */
export type UsageKind = Exclude<LimitKind, 'sessionMinutes'>;

export interface Limit {
  /** Baht, or minutes for sessionMinutes; null = no limit. */
  value: number | null;
  /** A raise or removal waiting its 24 hours. */
  pending: null | { value: number | null; effectiveAt: string };
}

export type RestrictionKind = 'TIMEOUT' | 'EXCLUSION';
export interface Restriction {
  kind: RestrictionKind;
  period: string;
  startsAt: string;
  endsAt: string;
}

export interface LimitsAnswer {
  limits: Record<LimitKind, Limit>;
  usage: Record<UsageKind, number>;
  realityMinutes: number;
  restriction: Restriction | null;
  /** This login's session: when it started and the server's clock now; minuteMs is one "minute" of play time. */
  session: { startedAt: string; now: string; minuteMs: number; netResult: number };
}

export const playLimitsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLimits: build.query<LimitsAnswer, void>({
      query: () => '/api/limits',
      providesTags: ['Limits'],
      // Read in the background by the layout; the limits page says itself when it could not load.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetLimitsQuery } = playLimitsApi;

const selectLimitsResult = playLimitsApi.endpoints.getLimits.select();

export const selectLimits = (state: RootState): LimitsAnswer | undefined => selectLimitsResult(state).data;

/**
 * The restriction running at `now` (a time-out or a self-exclusion), or null: from the last GET /api/limits
 * answer, so null until it has loaded. One that has ended since is not running.
 */
export function selectRestriction(state: RootState, now: number = Date.now()): Restriction | null {
  const restriction = selectLimits(state)?.restriction ?? null;
  if (!restriction) return null;
  const ends = Date.parse(restriction.endsAt);
  return Number.isFinite(ends) && ends <= now ? null : restriction;
}

/** The refusal code the server answers play routes with while `restriction` runs (errors.<CODE> translates it). */
export function restrictionCode(restriction: Pick<Restriction, 'kind'>): 'PLAY_TIMEOUT' | 'SELF_EXCLUDED' {
  return restriction.kind === 'EXCLUSION' ? 'SELF_EXCLUDED' : 'PLAY_TIMEOUT';
}
