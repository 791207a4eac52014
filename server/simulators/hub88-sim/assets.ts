/**
 * The aggregator simulator's game page script and stylesheet, served as files (/sim/hub88/play.js, /sim/hub88/play.css)
 * so the page runs under a CSP without 'unsafe-inline'. Plain ES2017 for any browser the wallet supports; kept as
 * strings because they run in the player's browser, not in this server. The script only posts the chosen stake to the
 * simulator's server (/sim/hub88/spin), which drives the round against the operator's Wallet API like Hub88 would.
 */
export const HUB88_PLAY_JS = `(function () {
  'use strict';
  var root = document.getElementById('game');
  if (!root) return;
  var texts = JSON.parse(document.getElementById('game-texts').textContent);
  var session = {
    token: root.getAttribute('data-token'),
    user: root.getAttribute('data-user'),
    game: root.getAttribute('data-game'),
    currency: root.getAttribute('data-currency')
  };
  var fmt = new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  var form = document.getElementById('spin-form');
  var spin = document.getElementById('spin');
  var balance = document.getElementById('balance');
  var result = document.getElementById('result');
  var reelBox = document.getElementById('reels');
  var reels = [document.getElementById('reel-1'), document.getElementById('reel-2'), document.getElementById('reel-3')];
  var glyphs = { DRAGON: '\\u{1F409}', PEARL: '\\u26AA', COIN: '\\u{1FA99}', LANTERN: '\\u{1F3EE}', JADE: '\\u{1F49A}' };
  var money = function (satang) { return fmt.format(satang / 100) + ' ' + session.currency; };

  function say(message, kind) {
    result.textContent = message;
    result.className = 'result' + (kind ? ' ' + kind : '');
  }
  function refusal(status) {
    if (status === 'RS_ERROR_NOT_ENOUGH_MONEY') return texts.insufficient;
    if (status === 'RS_ERROR_USER_DISABLED') return texts.disabled;
    if (status === 'RS_ERROR_LIMIT_REACHED') return texts.limit;
    if (status === 'RS_ERROR_INVALID_TOKEN' || status === 'RS_ERROR_TOKEN_EXPIRED') return texts.expired;
    return texts.error;
  }
  function busy(on) {
    spin.disabled = on;
    spin.textContent = on ? texts.spinning : texts.spin;
    root.setAttribute('aria-busy', on ? 'true' : 'false');
  }
  function show(symbols) {
    for (var i = 0; i < 3; i++) reels[i].textContent = glyphs[symbols[i]] || symbols[i];
    var names = symbols.map(function (s) { return texts.symbols[s] || s; }).join(', ');
    reelBox.setAttribute('aria-label', texts.reels + ': ' + names);
    return names;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var chosen = form.querySelector('input[name="stake"]:checked');
    if (!chosen) return;
    busy(true);
    say('', '');
    fetch('/sim/hub88/spin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: session.token, user: session.user, game: session.game, currency: session.currency, stake: Number(chosen.value) }),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (res) {
      return res.json().then(function (data) {
        if (!res.ok) throw new Error(data && data.message ? data.message : 'error');
        return data;
      });
    }).then(function (r) {
      if (r.balance !== null && r.balance !== undefined) balance.textContent = money(r.balance);
      if (r.outcome === 'settled') {
        var names = show(r.symbols);
        if (r.win > 0) say(texts.win.replace('{amount}', money(r.win)) + ' (' + names + ')', 'good');
        else say(texts.lose + ' (' + names + ')', '');
      } else if (r.outcome === 'refused') say(refusal(r.status), 'bad');
      else if (r.outcome === 'rolled_back') say(texts.rolledBack, 'bad');
      else if (r.outcome === 'unsettled') say(texts.unsettled, 'bad');
      else say(texts.error, 'bad');
    }).catch(function () {
      say(texts.error, 'bad');
    }).then(function () { busy(false); });
  });
})();
`;

export const HUB88_PLAY_CSS = `:root { color-scheme: dark; --bg: #1a0f0a; --panel: #2d1a12; --text: #fff6ec; --muted: #e6cdb8; --accent: #ffb347; --good: #7dff9e; --bad: #ff9b9b; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--text);
  font: 16px/1.5 "Noto Sans Thai", "Noto Sans Lao", "Noto Sans", system-ui, sans-serif; }
main { max-width: 28rem; margin: 0 auto; padding: 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
.sub, .note { color: var(--muted); margin: 0 0 1rem; }
.note { font-size: .85rem; margin-top: 1.5rem; }
.panel { background: var(--panel); border-radius: .75rem; padding: 1rem; margin-bottom: 1rem; }
.balance { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
.balance output { font-size: 1.35rem; font-weight: 700; color: var(--accent); }
.reels { display: flex; justify-content: center; gap: .5rem; margin: 1rem 0; }
.reels span { display: inline-flex; width: 4.5rem; height: 4.5rem; align-items: center; justify-content: center;
  font-size: 2rem; background: #120906; border: 2px solid #7a4a2e; border-radius: .5rem; }
fieldset.stakes { border: 0; padding: 0; margin: 0 0 1rem; display: flex; flex-wrap: wrap; gap: .5rem; }
fieldset.stakes legend { font-weight: 600; margin-bottom: .5rem; padding: 0; }
.stake { display: inline-flex; align-items: center; gap: .35rem; min-height: 44px; padding: .25rem .75rem; border: 2px solid #7a4a2e;
  border-radius: .5rem; cursor: pointer; }
.stake input { width: 1.1rem; height: 1.1rem; accent-color: var(--accent); }
.stake:has(input:checked) { border-color: var(--accent); }
button { font: inherit; min-height: 44px; min-width: 44px; padding: .5rem 1rem; border-radius: .5rem; cursor: pointer;
  border: 2px solid #7a4a2e; background: #3b2217; color: var(--text); }
button.primary { width: 100%; font-size: 1.25rem; font-weight: 700; background: var(--accent); color: #1a0d00; border-color: var(--accent); }
button:disabled { opacity: .6; cursor: progress; }
a { color: #ffd59a; }
:focus-visible { outline: 3px solid #8fd3ff; outline-offset: 2px; }
.result { min-height: 1.5em; font-weight: 600; text-align: center; }
.result.good { color: var(--good); }
.result.bad { color: var(--bad); }
`;
