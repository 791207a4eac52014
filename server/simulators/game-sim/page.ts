import { htmlLang, SIM_TEXTS, type SimLang } from './texts';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** JSON safe inside a <script type="application/json"> block. */
const jsonForScript = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

const formatMajor = (satang: number, lang: SimLang): string =>
  new Intl.NumberFormat(htmlLang(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(satang / 100);

/** Only what the page needs, and none of it executable: the CSP allows scripts from this server only. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

function layout(lang: SimLang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${htmlLang(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/sim/games/play.css">
</head>
<body>
${body}
</body>
</html>
`;
}

export interface GamePageModel {
  lang: SimLang;
  gameCode: string;
  gameName: string;
  username: string;
  balance: number; // satang
  token: string;
  quickBets: number[]; // major units
}

export function renderGamePage(m: GamePageModel): string {
  const t = SIM_TEXTS[m.lang];
  const quick = m.quickBets.map((b) => `<button type="button" data-bet="${b}">${escapeHtml(String(b))}</button>`).join('');
  return layout(
    m.lang,
    `${m.gameName} · ${t.title}`,
    `<main id="game" data-code="${escapeHtml(m.gameCode)}" data-token="${escapeHtml(m.token)}" aria-busy="false">
<h1>${escapeHtml(m.gameName)} · ${escapeHtml(t.title)}</h1>
<p class="sub">${escapeHtml(t.account)}: <span id="username">${escapeHtml(m.username)}</span></p>
<section class="panel balance" aria-labelledby="balance-label">
<span id="balance-label">${escapeHtml(t.balance)}</span>
<output id="balance" aria-labelledby="balance-label">${escapeHtml(formatMajor(m.balance, m.lang))}</output>
</section>
<section class="panel">
<div class="reels" role="img" aria-label="${escapeHtml(t.reels)}"><span id="reel-1">7</span><span id="reel-2">7</span><span id="reel-3">7</span></div>
<form id="spin-form" novalidate>
<label for="bet">${escapeHtml(t.bet)}</label>
<input id="bet" name="bet" type="number" inputmode="decimal" min="0.01" step="0.01" value="${m.quickBets[0] ?? 1}" required aria-describedby="result">
<div class="quick" role="group" aria-label="${escapeHtml(t.quickBets)}">${quick}</div>
<button type="submit" id="spin" class="primary">${escapeHtml(t.spin)}</button>
</form>
<p id="result" class="result" role="status" aria-live="polite"></p>
</section>
<button type="button" id="refresh">${escapeHtml(t.refresh)}</button>
<noscript><p>${escapeHtml(t.noscript)}</p></noscript>
<p class="note">${escapeHtml(t.demoNote)}</p>
</main>
<script type="application/json" id="game-texts">${jsonForScript(t)}</script>
<script src="/sim/games/play.js" defer></script>`,
  );
}

/** What a forged, expired or outdated launch link shows (status 401). */
export function renderExpiredPage(lang: SimLang): string {
  const t = SIM_TEXTS[lang];
  return layout(lang, t.title, `<main><h1>${escapeHtml(t.title)}</h1><p role="alert">${escapeHtml(t.expired)}</p></main>`);
}
