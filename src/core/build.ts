/** Build flags (spec §1), replaced at build time by webpack's DefinePlugin. */
export type Market = 'th' | 'lao';

export const MARKET: Market = process.env.MARKET === 'lao' ? 'lao' : 'th';
export const APP_VERSION: string = process.env.APP_VERSION ?? '1.1.14';
