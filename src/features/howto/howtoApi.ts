import { api } from '../../core/api';

/** The five how-to subjects of spec §2, in the screen's order. */
export const HOWTO_KEYS = ['wallet', 'play', 'balance', 'bonus', 'cancelBonus'] as const;
export type HowtoKey = (typeof HOWTO_KEYS)[number];

/** One video of GET /api/lookup/howto (chat-contract "How-to videos"): null url means there is no video. */
export interface HowtoVideo {
  key: HowtoKey;
  url: string | null;
  poster: string | null;
  /** A WebVTT file per language given. */
  captions: { th?: string; la?: string; en?: string };
}

export interface HowtoLookup {
  videos: HowtoVideo[];
}

export const howtoApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHowto: build.query<HowtoLookup, void>({
      query: () => '/api/lookup/howto',
      providesTags: ['Lookup'],
      // The screen says itself that the videos could not be loaded, with a retry.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetHowtoQuery } = howtoApi;
