import type { Locale } from '../lib/locale';
import { api } from './api';

/** GET /api/lookup/active: the site-active switch; "gone" means the site or account is terminated. */
export interface SiteActive {
  terminated: 'gone' | null;
}

/** GET /api/lookup/info: the operator's name and site, and whether the server runs in demo mode. */
export interface SiteInfo {
  name: string;
  website: string;
  /** Demo mode: payments are simulated and /demo/bank is open to anyone; every page says so (DemoBanner). */
  demo: boolean;
  /** The operator's logo (a site path such as /media/logo.png, or https), from the info setting; none: the name alone. */
  logo?: string;
  /** The youngest a player may be (MIN_PLAYER_AGE); the registration's age checkbox names it (issue 15). */
  minPlayerAge?: number;
  /** The shortest password the server takes (PASSWORD_MIN_LENGTH); the password fields name it before typing (issue 12). */
  passwordMinLength?: number;
}

/** App-wide lookups used by the shell; features inject their own (banks, deposit, ...) next to their screens. */
export const lookupApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSiteActive: build.query<SiteActive, void>({
      query: () => '/api/lookup/active',
      // The navigation guard reads the answer itself; no toast, no redirect from here.
      extraOptions: { raw: true },
    }),
    getSiteInfo: build.query<SiteInfo, void>({
      query: () => '/api/lookup/info',
      providesTags: ['Lookup'],
      // The demo banner and the top bar's brand read it: a failure shows no banner and the app's own name, quietly.
      extraOptions: { raw: true },
    }),
    /** GET /api/lookup/enableChatWidget: whether the chat launcher shows (spec §2); a failure shows none, quietly. */
    getChatWidgetEnabled: build.query<{ enableChatWidget: boolean }, void>({
      query: () => '/api/lookup/enableChatWidget',
      providesTags: ['Lookup'],
      extraOptions: { raw: true },
    }),
    /** In the player's language (issue 12): the server keeps the conditions per language, Thai the fallback. */
    getConditions: build.query<string[], Locale>({
      query: (lang) => `/api/lookup/conditions?lang=${lang}`,
      providesTags: ['Lookup'],
    }),
  }),
});

export const { useGetConditionsQuery, useGetSiteInfoQuery, useGetChatWidgetEnabledQuery } = lookupApi;
