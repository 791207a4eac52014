import { PAGE_CSP } from '../game-sim/page';
import { htmlLang, HUB88_SIM_TEXTS, type Hub88SimLang } from './texts';

/** The game page runs under the game simulator's CSP: scripts, styles and calls to this server only, no inline script. */
export const HUB88_PAGE_CSP = PAGE_CSP;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** JSON safe inside a <script type="application/json"> block. */
const jsonForScript = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

export const formatMajor = (satang: number, lang: Hub88SimLang): string =>
  new Intl.NumberFormat(htmlLang(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(satang / 100);

function layout(lang: Hub88SimLang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${htmlLang(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/sim/hub88/play.css">
</head>
<body>
${body}
</body>
</html>
`;
}

export interface Hub88PageModel {
  lang: Hub88SimLang;
  gameName: string;
  game: string;
  user: string;
  token: string;
  currency: string;
  /** Satang, or null when the operator's balance answer did not come. */
  balance: number | null;
  /** The stakes offered, satang. */
  stakes: number[];
  /** A same-origin path or an http(s) URL; null: no lobby link. */
  lobby: string | null;
}

export function renderHub88Page(m: Hub88PageModel): string {
  const t = HUB88_SIM_TEXTS[m.lang];
  const stakes = m.stakes
    .map(
      (s, i) =>
        `<label class="stake"><input type="radio" name="stake" value="${s}"${i === 0 ? ' checked' : ''}><span>${escapeHtml(formatMajor(s, m.lang))} ${escapeHtml(m.currency)}</span></label>`,
    )
    .join('');
  const lobby = m.lobby ? `<p><a class="lobby" href="${escapeHtml(m.lobby)}">${escapeHtml(t.lobby)}</a></p>` : '';
  return layout(
    m.lang,
    `${m.gameName} · ${t.title}`,
    `<main id="game" data-game="${escapeHtml(m.game)}" data-user="${escapeHtml(m.user)}" data-token="${escapeHtml(m.token)}" data-currency="${escapeHtml(m.currency)}" aria-busy="false">
<h1>${escapeHtml(m.gameName)}</h1>
<p class="sub">${escapeHtml(t.title)}</p>
<section class="panel balance" aria-labelledby="balance-label">
<span id="balance-label">${escapeHtml(t.balance)}</span>
<output id="balance" aria-labelledby="balance-label">${escapeHtml(m.balance === null ? t.balanceUnknown : `${formatMajor(m.balance, m.lang)} ${m.currency}`)}</output>
</section>
<section class="panel">
<div id="reels" class="reels" role="img" aria-label="${escapeHtml(t.reels)}"><span id="reel-1" aria-hidden="true">🐉</span><span id="reel-2" aria-hidden="true">🐉</span><span id="reel-3" aria-hidden="true">🐉</span></div>
<form id="spin-form" novalidate>
<fieldset class="stakes"><legend>${escapeHtml(t.stake)}</legend>${stakes}</fieldset>
<button type="submit" id="spin" class="primary">${escapeHtml(t.spin)}</button>
</form>
<p id="result" class="result" role="status" aria-live="polite"></p>
</section>
${lobby}
<noscript><p>${escapeHtml(t.noscript)}</p></noscript>
<p class="note">${escapeHtml(t.demoNote)}</p>
</main>
<script type="application/json" id="game-texts">${jsonForScript(t)}</script>
<script src="/sim/hub88/play.js" defer></script>`,
  );
}

/** What an unknown or expired session token shows (status 401). */
export function renderHub88Expired(lang: Hub88SimLang, lobby: string | null): string {
  const t = HUB88_SIM_TEXTS[lang];
  const back = lobby ? `<p><a class="lobby" href="${escapeHtml(lobby)}">${escapeHtml(t.lobby)}</a></p>` : '';
  return layout(lang, t.title, `<main><h1>${escapeHtml(t.title)}</h1><p role="alert">${escapeHtml(t.expired)}</p>${back}</main>`);
}
