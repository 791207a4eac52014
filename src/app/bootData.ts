import { lookupApi, type SiteActive, type SiteInfo } from '../core/lookupApi';
import type { AppStore } from './store';

/**
 * What the server embeds in the page (server/http/spa.ts `withBootData`): the lookups the first screen draws
 * from. Seeding the API cache with them before the first render puts the demo banner and the operator's name on
 * the first paint (no layout shift when the answers would arrive) and saves those two requests.
 */
export interface BootData {
  info?: SiteInfo;
  chat?: { enableChatWidget: boolean };
  /** The site-active switch when the page was served, milliseconds ago: the guard's answer for the first navigation. */
  active?: SiteActive;
}

let bootActive: SiteActive | undefined;

/**
 * The boot data's site-active answer, once: the first navigation's guard takes it instead of asking the server
 * again (a round trip before anything can render); every later navigation asks.
 */
export function takeBootActive(): SiteActive | undefined {
  const active = bootActive;
  bootActive = undefined;
  return active;
}

/** The boot data of `doc`, or nothing when the page has none or it does not parse (a dev server page). */
export function readBootData(doc: Document): BootData {
  const text = doc.querySelector<HTMLMetaElement>('meta[name="boot-data"]')?.content;
  if (!text) return {};
  try {
    const data = JSON.parse(text) as unknown;
    return data && typeof data === 'object' ? (data as BootData) : {};
  } catch {
    return {};
  }
}

/** Puts the boot data's answers in the API cache, as if the lookups had just answered, and keeps `active` for the guard. */
export function seedBootData(store: AppStore, data: BootData): void {
  bootActive = data.active && (data.active.terminated === null || data.active.terminated === 'gone') ? data.active : undefined;
  const entries = [
    ...(data.info ? [{ endpointName: 'getSiteInfo' as const, arg: undefined, value: data.info }] : []),
    ...(data.chat ? [{ endpointName: 'getChatWidgetEnabled' as const, arg: undefined, value: data.chat }] : []),
  ];
  if (entries.length > 0) store.dispatch(lookupApi.util.upsertQueryEntries(entries));
}
