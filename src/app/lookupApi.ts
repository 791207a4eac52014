import { api } from './api';

/** GET /api/lookup/active: the site-active switch; "gone" means the site or account is terminated. */
export interface SiteActive {
  terminated: 'gone' | null;
}

/** App-wide lookups used by the shell; features inject their own (banks, deposit, ...) next to their screens. */
export const lookupApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSiteActive: build.query<SiteActive, void>({
      query: () => '/api/lookup/active',
      // The navigation guard reads the answer itself; no toast, no redirect from here.
      extraOptions: { raw: true },
    }),
    getConditions: build.query<string[], void>({
      query: () => '/api/lookup/conditions',
      providesTags: ['Lookup'],
    }),
  }),
});

export const { useGetConditionsQuery } = lookupApi;
