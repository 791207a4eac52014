/**
 * JSON schemas every API group shares (docs/server.md): the error envelope, operator texts in three languages,
 * banners, and the {page, limit} body of the paged lists. A plugin's own schemas.ts holds only its entities.
 */
export const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;

/** The envelope for every 4xx and 5xx answer of a route. */
export const errors = { '4xx': errorBody, '5xx': errorBody } as const;

/** An operator text (HTML) in th, la and en; the SPA picks the player's language and sanitizes it. */
export const localized = {
  type: 'object',
  properties: { th: { type: 'string' }, la: { type: 'string' }, en: { type: 'string' } },
  required: ['th', 'la', 'en'],
} as const;

export const banner = { type: 'object', properties: { image: { type: 'string' }, html: localized }, required: ['image', 'html'] } as const;
export const banners = { type: 'array', items: banner } as const;
/** GET /api/{invite,refund}/banners. */
export const bannerList = { type: 'object', properties: { banners }, required: ['banners'] } as const;

/** POST {page, limit} of the paged lists (statement, slips, invitees, refunds); both optional. */
export const pageBody = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 1, maximum: 100000 }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
  additionalProperties: false,
} as const;
