import { nextTask } from './nextTask';

/**
 * What the prerendered login page's first script does (src/bootLoader.ts; webpack's EntryScriptsAfterLoader;
 * server/http/spa-prerender.ts; docs/client.md "First screen"). The page names the app's entry scripts
 * (`<meta name="entry-script">`) and the first screen's other scripts (`<meta name="preload-script">`) instead of
 * fetching them: the screen in the root (`hidden`) is shown once the web fonts its text is set in are loaded, and
 * after its first paint the scripts are fetched and the entry scripts started in order, so that paint waits for
 * no script. A page whose root is empty starts them at once. Nothing waits forever: the screen shows after
 * `FONT_WAIT_MS` even without its fonts, and the scripts start when the browser cannot say when it painted, when
 * the page is hidden (a background tab does not paint) or when no paint has come within `PAINT_WAIT_MS`.
 */
export const FONT_WAIT_MS = 1500;
export const PAINT_WAIT_MS = 1000;

/**
 * Marks a prerendered screen that only a logged-in player gets to (the home, server/http/spa-prerender.ts): the
 * server cannot tell (the session is in the browser's storage), so the loader shows it only when a session is
 * stored, and otherwise drops it: a visitor's /user/home goes on to the login, without the player's home flashing
 * first.
 */
export const NEEDS_SESSION = 'data-needs-session';

/** index.html's first script: the prerendered screen (if any) shown, then the app's scripts started. */
export async function boot(doc: Document = document): Promise<void> {
  const root = doc.getElementById('root');
  if (root?.hasAttribute(NEEDS_SESSION) && !hasStoredSession(doc.defaultView)) root.replaceChildren();
  if (root?.firstElementChild && root.hidden) {
    // In a task of its own: this script runs in the task that ends the page's parsing, and the font check's first
    // getComputedStyle computes the whole page's style there (~70 ms of a ~190 ms task on Lighthouse's 4x-slowed
    // phone); apart, each task is shorter (total blocking time counts what a task lasts past 50 ms).
    await nextTask();
    await fontsFor(doc, root);
    root.hidden = false;
    await firstPaint(doc);
  }
  startEntryScripts(doc);
}

/**
 * The web fonts `root`'s text is set in, loaded, or `FONT_WAIT_MS` passed. Text laid out before its font is there
 * is laid out twice, the first time through the system's font fallback, which on this machine kind took ~70 ms
 * more than the whole layout with the fonts (Lighthouse's phone: 4x that). Each element's own text is asked for in
 * its own style and weight, so only the faces the screen draws with are loaded (the preloaded ones).
 */
export function fontsFor(doc: Document, root: HTMLElement): Promise<void> {
  const fonts = doc.fonts as FontFaceSet | undefined;
  if (!fonts?.load) return Promise.resolve();
  const textByFont = new Map<string, string>();
  for (const element of [root, ...root.querySelectorAll('*')]) {
    let own = '';
    for (const node of element.childNodes) if (node.nodeType === 3) own += node.nodeValue ?? '';
    if (!own.trim()) continue;
    const style = getComputedStyle(element);
    const font = `${style.fontStyle} ${style.fontWeight} 1em ${style.fontFamily}`;
    textByFont.set(font, (textByFont.get(font) ?? '') + own);
  }
  const loaded = Promise.all([...textByFont].map(([font, text]) => fonts.load(font, text))).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([loaded, new Promise<void>((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

/** The page's first contentful paint, or a reason not to wait for it (see above). */
export function firstPaint(doc: Document): Promise<void> {
  const canObserve = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
  if (!canObserve || doc.visibilityState !== 'visible') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      doc.removeEventListener('visibilitychange', done);
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    observer.observe({ type: 'paint', buffered: true });
    const timer = setTimeout(done, PAINT_WAIT_MS);
    doc.addEventListener('visibilitychange', done);
  });
}

/** The first screen's scripts preloaded, and the entry scripts added as scripts in their order. */
export function startEntryScripts(doc: Document): void {
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="preload-script"]')) {
    const link = doc.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'script');
    link.href = meta.content;
    doc.head.appendChild(link);
  }
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="entry-script"]')) {
    const script = doc.createElement('script');
    script.src = meta.content;
    // Inserted scripts run in insertion order only when not async.
    script.async = false;
    doc.head.appendChild(script);
  }
}

/**
 * Whether the browser holds a player's session: redux-persist's `persist:token` record (src/app/persist.ts: in
 * localStorage with remember-me, else in sessionStorage) with a token in it. Whether the token is still good is the
 * app's to find out; a storage that cannot be read holds none.
 */
export function hasStoredSession(win: (Window & typeof globalThis) | null): boolean {
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    try {
      const record = win?.[kind].getItem('persist:token');
      if (!record) continue;
      const token: unknown = JSON.parse(String((JSON.parse(record) as Record<string, unknown>).token ?? 'null'));
      if (typeof token === 'string' && token !== '') return true;
    } catch {
      // unreadable storage or record: no session from it
    }
  }
  return false;
}
