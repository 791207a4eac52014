/**
 * The game page's script and stylesheet, served as files (/sim/games/play.js, /sim/games/play.css) so the
 * page runs under a CSP without 'unsafe-inline'. Plain ES2017 for any browser the wallet supports; kept as
 * strings because they run in the player's browser, not in this server.
 */
export const PLAY_JS = `(function () {
  'use strict';
  var root = document.getElementById('game');
  if (!root) return;
  var texts = JSON.parse(document.getElementById('game-texts').textContent);
  var code = root.getAttribute('data-code');
  var token = root.getAttribute('data-token');
  var fmt = new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  var form = document.getElementById('spin-form');
  var bet = document.getElementById('bet');
  var spin = document.getElementById('spin');
  var refresh = document.getElementById('refresh');
  var balance = document.getElementById('balance');
  var result = document.getElementById('result');
  var reels = [document.getElementById('reel-1'), document.getElementById('reel-2'), document.getElementById('reel-3')];
  var glyphs = { '7': '7', BAR: 'BAR', CHERRY: '\\u{1F352}', BELL: '\\u{1F514}', LEMON: '\\u{1F34B}' };

  function say(message, kind) {
    result.textContent = message;
    result.className = 'result' + (kind ? ' ' + kind : '');
  }
  function errorText(code) {
    if (code === 'MONEY_NOT_ENOUGH') return texts.insufficient;
    if (code === 'INVALID_BET' || code === 'INVALID_USER_INFO') return texts.invalidBet;
    if (code === 'invalid-token') return texts.expired;
    return texts.error;
  }
  function post(path, body) {
    return fetch('/sim/games/' + encodeURIComponent(code) + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (res) {
      return res.json().then(function (data) {
        if (!res.ok) throw new Error(data && data.message ? data.message : 'error');
        return data;
      });
    });
  }
  function busy(on) {
    spin.disabled = on;
    refresh.disabled = on;
    spin.textContent = on ? texts.spinning : texts.spin;
    root.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-bet]'), function (button) {
    button.addEventListener('click', function () {
      bet.value = button.getAttribute('data-bet');
      bet.focus();
    });
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var amount = Number(bet.value);
    if (!(amount > 0) || Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) {
      say(texts.invalidBet, 'bad');
      bet.setAttribute('aria-invalid', 'true');
      bet.focus();
      return;
    }
    bet.removeAttribute('aria-invalid');
    busy(true);
    post('/round', { t: token, bet: amount }).then(function (r) {
      balance.textContent = fmt.format(r.balance);
      for (var i = 0; i < 3; i++) reels[i].textContent = glyphs[r.symbols[i]] || r.symbols[i];
      var shown = r.symbols.map(function (s) { return glyphs[s] || s; }).join(' ');
      if (r.win > 0) say(texts.win.replace('{amount}', fmt.format(r.win)) + ' (' + shown + ')', 'good');
      else say(texts.lose + ' (' + shown + ')', '');
    }).catch(function (e) {
      say(errorText(e.message), 'bad');
    }).then(function () { busy(false); });
  });

  refresh.addEventListener('click', function () {
    busy(true);
    post('/balance', { t: token }).then(function (r) {
      balance.textContent = fmt.format(r.balance);
    }).catch(function (e) {
      say(errorText(e.message), 'bad');
    }).then(function () { busy(false); });
  });
})();
`;

export const PLAY_CSS = `:root { color-scheme: dark; --bg: #14121f; --panel: #221f35; --text: #f4f2ff; --muted: #c9c4e6; --accent: #ffcc33; --good: #7dff9e; --bad: #ff9b9b; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--text);
  font: 16px/1.5 "Noto Sans Thai", "Noto Sans Lao", "Noto Sans", system-ui, sans-serif; }
main { max-width: 28rem; margin: 0 auto; padding: 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
.sub, .note { color: var(--muted); margin: 0 0 1rem; }
.note { font-size: .85rem; margin-top: 1.5rem; }
.panel { background: var(--panel); border-radius: .75rem; padding: 1rem; margin-bottom: 1rem; }
.balance { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
.balance output { font-size: 1.5rem; font-weight: 700; color: var(--accent); }
.reels { display: flex; justify-content: center; gap: .5rem; margin: 1rem 0; }
.reels span { display: inline-flex; width: 4.5rem; height: 4.5rem; align-items: center; justify-content: center;
  font-size: 1.6rem; font-weight: 700; background: #0d0b16; border: 2px solid #4a4570; border-radius: .5rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input { width: 100%; font: inherit; font-size: 1.25rem; padding: .6rem; border-radius: .5rem; border: 2px solid #6b6599;
  background: #0d0b16; color: var(--text); }
input[aria-invalid="true"] { border-color: var(--bad); }
.quick { display: flex; gap: .5rem; flex-wrap: wrap; margin: .75rem 0; }
button { font: inherit; min-height: 44px; min-width: 44px; padding: .5rem 1rem; border-radius: .5rem; cursor: pointer;
  border: 2px solid #6b6599; background: #2e2a48; color: var(--text); }
button.primary { width: 100%; font-size: 1.25rem; font-weight: 700; background: var(--accent); color: #1a1400; border-color: var(--accent); }
button:disabled { opacity: .6; cursor: progress; }
:focus-visible { outline: 3px solid #8fd3ff; outline-offset: 2px; }
.result { min-height: 1.5em; font-weight: 600; text-align: center; }
.result.good { color: var(--good); }
.result.bad { color: var(--bad); }
`;
