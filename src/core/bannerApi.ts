import type { LocalizedText } from '../lib/localized';
import { api } from './api';

/** Spec §3 banner item: an image and its caption (operator HTML, sanitized before rendering). */
export interface Banner {
  image: string;
  html: LocalizedText;
}

/** The home modals that show banners first (spec §2 Home modals): refund now, invite next. */
export type BannerSource = 'refund' | 'invite';

/**
 * GET /api/{refund|invite}/banners. More than one feature opens its modal behind these banners, so the
 * endpoint lives here; the gate (components/useBannerGate) asks for a fresh list each time.
 */
export const bannerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBanners: build.query<{ banners: Banner[] }, BannerSource>({
      query: (source) => `/api/${source}/banners`,
      // Banners are decoration: a failure lets the player through to the modal without a toast.
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyGetBannersQuery } = bannerApi;
