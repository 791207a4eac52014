import { api } from '../../core/api';

/** GET /api/lookup/contact (docs/server.md "Lookups"): contactText is HTML from the operator, lineQR an image URL or null. */
export interface ContactLookup {
  contactText: string;
  lineLink: string;
  lineName: string;
  lineQR: string | null;
}

export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    getContact: build.query<ContactLookup, void>({
      query: () => '/api/lookup/contact',
      providesTags: ['Lookup'],
      // The screen says itself that the details could not be loaded, with a retry.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetContactQuery } = contactApi;

/** Only web links leave the page: a javascript: or other scheme from a stored document is not a link. */
export function safeLink(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The QR image: a data: image, a same-site path or a web URL. */
export function safeImage(value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/i.test(value)) return value;
  if (/^\/(?!\/)/.test(value)) return value;
  return safeLink(value);
}
