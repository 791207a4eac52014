import type { LookupName } from './lookups-service';
import { HOWTO_KEYS } from '../../settings';

/** Response schemas of GET /api/lookup/{name}: exactly the shapes of RULES.md "Wire shapes". */
const str = { type: 'string' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const num = { type: 'number' } as const;
const obj = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});
const htmlList = { type: 'array', items: str } as const;

export const lookupResponse: Record<LookupName, object> = {
  banks: { type: 'array', items: obj({ code: str, nameTH: str, nameEN: str, name: str, market: str, englishNameOnly: bool }) },
  deposit: obj({
    banks: {
      type: 'array',
      items: obj(
        {
          bankCode: str,
          bankType: { type: 'string', enum: ['BANK', 'PAYMENT'] },
          mode: str,
          bank: obj({ nameTH: str, nameEN: str, name: str }),
          bankAccountName: str,
          bankAccountNo: str,
          currency: str,
        },
        ['currency'],
      ),
    },
    wallets: { type: 'array', items: obj({ mode: str, walletAccountName: str }) },
    isManual: bool,
    qrMinimums: obj({ KBANK: num, WW: num, E2P: num }),
    giftMinimum: num,
    creditMinutes: num,
  }),
  conditions: htmlList,
  agreements: htmlList,
  info: obj({ name: str, website: str, logo: str, demo: bool, minPlayerAge: { type: 'integer' }, passwordMinLength: { type: 'integer' } }, ['logo']),
  notice: obj({ notice: str }),
  contact: obj({ contactText: str, lineLink: str, lineName: str, lineQR: nullableStr }),
  withdraw: obj({ withdrawMin: num, withdrawMax: num }),
  slip: obj({ isOpen: bool, closeFrom: nullableStr, closeTo: nullableStr, uploadWindowMinutes: { type: 'integer' } }),
  sources: { type: 'array', items: obj({ code: str, description: str }) },
  active: obj({ terminated: { type: ['string', 'null'], enum: ['gone', null] } }),
  registerOTP: obj({ registerOTP: bool }),
  enableChatWidget: obj({ enableChatWidget: bool }),
  howto: obj({
    videos: {
      type: 'array',
      items: obj({
        key: { type: 'string', enum: [...HOWTO_KEYS] },
        url: nullableStr,
        poster: nullableStr,
        captions: obj({ th: str, la: str, en: str }, ['th', 'la', 'en']),
      }),
    },
  }),
};

export const errorResponse = obj({ message: str });

/** Lookups take no parameters, except the banks' market and the language of the texts and names (issues 12, 40). */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

const lang = { type: 'string', enum: ['th', 'la', 'en'] } as const;
const langQuery = { type: 'object', additionalProperties: false, properties: { lang } } as const;

export const lookupQuery: Partial<Record<LookupName, object>> = {
  banks: { type: 'object', additionalProperties: false, properties: { market: { type: 'string', enum: ['th', 'lao'] }, lang } },
  deposit: langQuery,
  conditions: langQuery,
  agreements: langQuery,
  contact: langQuery,
  sources: langQuery,
};
