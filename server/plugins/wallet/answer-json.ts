import type { SlotView, WalletView } from './service';

/**
 * GET /api/wallet's answer as the bytes sent (issue 13, the read path). The screen asks for it on every view and after
 * every change, so it is the most asked answer of the server; schemas.ts `walletResponse` describes it, and a property
 * test checks these bytes against what Fastify's serializer makes from that schema (answer-json.test.ts).
 *
 * Two costs of the schema's serializer are gone here:
 * - Every character past ASCII is written as a `\u` escape, so the text is a one-byte string and its bytes are a plain
 *   copy (`latin1`). A Thai bank or player name made the whole answer a two-byte string, which Node measured and then
 *   encoded to UTF-8 character by character: ~6 us of the ~10 the answer cost (a loop over the bench's answer).
 * - A slot's fields that come from the game (code, name, category, logo, ...) are the same in every player's answer:
 *   their JSON is made once per game and kept while the game's fields stay as they were (compared on each use).
 */
export function walletAnswerBytes(view: WalletView): Buffer {
  const { profile: p, bankAccount: b, wallet, invite } = view;
  let out =
    `{"profile":{"name":${str(p.name)},"username":${str(p.username)},"_id":${str(p._id)},"coin":${num(p.coin)}},` +
    `"bankAccount":{"bankAccountName":${str(b.bankAccountName)},"bankAccountNo":${str(b.bankAccountNo)},"bankCode":${str(b.bankCode)},` +
    `"bank":{"nameTH":${str(b.bank.nameTH)},"nameEN":${str(b.bank.nameEN)}}},` +
    `"wallet":{"amount":${num(wallet.amount)}},` +
    `"invite":{"amount":${num(invite.amount)},"success":${num(invite.success)},"fail":${num(invite.fail)}},` +
    `"slots":[`;
  for (let i = 0; i < view.slots.length; i++) {
    const s = view.slots[i];
    const f = fragmentsOf(s);
    const idle = !s.isActive && s.amount === 0 && s.web === null;
    out += `${i ? ',' : ''}${idle ? f.idle : `${f.head}${s.isActive ? 'true' : 'false'},"amount":${num(s.amount)}${f.middle}${nullable(s.web)}${f.tail}`}`;
  }
  return Buffer.from(`${out}]}`, 'latin1');
}

/** A string's JSON text in ASCII: JSON.stringify's, with each UTF-16 unit past 0x7e as `\uXXXX` (valid JSON, the same string). */
export function str(s: string): string {
  const json = JSON.stringify(s);
  if (!PAST_ASCII.test(json)) return json;
  // Texts past ASCII repeat (a bank's Thai name in every answer of its customers, a player's name in each of theirs):
  // their escaped form is kept, up to ESCAPED_KEPT of them (all dropped when full).
  let escaped = escapedTexts.get(s);
  if (escaped === undefined) {
    escaped = escapeToAscii(json);
    if (escapedTexts.size >= ESCAPED_KEPT) escapedTexts.clear();
    escapedTexts.set(s, escaped);
  }
  return escaped;
}

const PAST_ASCII = /[^\x00-\x7e]/;
const ESCAPED_KEPT = 4096;
const escapedTexts = new Map<string, string>();

function escapeToAscii(json: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c > 0x7e) {
      out += `${json.slice(from, i)}\\u${c.toString(16).padStart(4, '0')}`;
      from = i + 1;
    }
  }
  return out + json.slice(from);
}

const nullable = (s: string | null) => (s === null ? 'null' : str(s));

/** A number's JSON text; NaN and the infinities have none, and a wallet answer holding one is a fault, not a figure. */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`wallet answer: ${n} is not a number JSON can carry`);
  return String(n);
}

/**
 * The parts of a slot's JSON that come from its game, around the player's isActive, amount and web; and the whole slot
 * of a game the player has not opened (not active, nothing in it, no link), as most of a player's games are.
 */
interface SlotFragments {
  of: Omit<SlotView, 'isActive' | 'amount' | 'web'>;
  head: string;
  middle: string;
  tail: string;
  idle: string;
}

const fragments = new Map<string, SlotFragments>();

function fragmentsOf(s: SlotView): SlotFragments {
  const f = fragments.get(s.code);
  if (f && sameGame(f.of, s)) return f;
  const parts = {
    of: { code: s.code, name: s.name, category: s.category, ftWalletSlot: s.ftWalletSlot, logo: s.logo, background: s.background, android: s.android, ios: s.ios, seamless: s.seamless },
    head: `{"code":${str(s.code)},"name":${str(s.name)},"category":${str(s.category)},"isActive":`,
    middle: `,"ftWalletSlot":${num(s.ftWalletSlot)},"logo":${str(s.logo)},"background":${str(s.background)},"web":`,
    tail: `,"android":${nullable(s.android)},"ios":${nullable(s.ios)},"seamless":${s.seamless ? 'true' : 'false'}}`,
  };
  const made: SlotFragments = { ...parts, idle: `${parts.head}false,"amount":0${parts.middle}null${parts.tail}` };
  fragments.set(s.code, made);
  return made;
}

const sameGame = (a: SlotFragments['of'], s: SlotView) =>
  a.name === s.name &&
  a.category === s.category &&
  a.ftWalletSlot === s.ftWalletSlot &&
  a.logo === s.logo &&
  a.background === s.background &&
  a.android === s.android &&
  a.ios === s.ios &&
  a.seamless === s.seamless;
