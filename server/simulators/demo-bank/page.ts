import { formatSatang } from '../../ledger/money';
import { TEXT_LANGS, type TextLang } from '../../settings';
import { BANK_FONT_FACES, BANK_TEXTS } from './texts';

/** Server-rendered HTML of the demo bank (no inline script or style: the CSP allows only 'self' files). */
export const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface BankPageData {
  flash: { kind: 'ok' | 'error'; text: string } | null;
  slipRef: string | null;
  gift: { link: string; encrypted: string } | null;
  qrs: { id: string; bank_code: string; amount: number; expires_at: string; phone: string; name: string }[];
  withdrawals: { id: string; amount: number; bank_code: string; bank_account_no: string; phone: string; created_at: string }[];
  players: { id: number; phone: string; name: string; bank_code: string; bank_account_no: string }[];
  transfers: { trans_ref: string; amount: number; sender_account_no: string; transferred_at: string; receiver_account_no: string | null; receiver_promptpay_id: string | null }[];
  promptPayId: string;
  operatorName: string;
  now: Date;
  /** The page's language (texts.ts bankLang); English when absent. */
  lang?: TextLang;
}

const baht = (satang: number) => `${formatSatang(Number(satang))} ฿`;

/** The language links: the same page in th, la or en (the choice is kept in the link only, not in a cookie). */
function languageLinks(lang: TextLang, label: string): string {
  const names: Record<TextLang, string> = { th: 'ไทย', la: 'ລາວ', en: 'English' };
  const links = TEXT_LANGS.map((l) => (l === lang ? `<strong lang="${l}">${names[l]}</strong>` : `<a href="/demo/bank?lang=${l}" lang="${l}" hreflang="${l}">${names[l]}</a>`));
  return `<nav class="langs" aria-label="${esc(label)}">${links.join(' ')}</nav>`;
}

export function renderBankPage(d: BankPageData): string {
  const lang = d.lang ?? 'en';
  const x = BANK_TEXTS[lang];
  const left = (iso: string) => Math.max(0, Math.ceil((Date.parse(iso) - d.now.getTime()) / 1000));
  const qrRows = d.qrs
    .map(
      (q) => `<tr><td data-label="${x.bank}">${esc(q.bank_code)}</td><td data-label="${x.player}">${esc(q.phone)} ${esc(q.name)}</td><td class="num" data-label="${x.amount}">${baht(q.amount)}</td>
<td data-label="${x.expiresIn}"><span data-countdown="${left(q.expires_at)}">${left(q.expires_at)} s</span></td>
<td class="actions"><form method="post" action="/demo/bank/qr/${esc(q.id)}/pay" class="inline">
<input name="amount" inputmode="decimal" placeholder="${esc(formatSatang(q.amount))}" aria-label="${esc(x.payAmount)}" size="8">
<button type="submit">${x.pay}</button></form></td></tr>`,
    )
    .join('');
  const payoutRows = d.withdrawals
    .map(
      (w) => `<tr><td data-label="${x.player}">${esc(w.phone)}</td><td data-label="${x.toAccount}">${esc(w.bank_code)} ${esc(w.bank_account_no)}</td><td class="num" data-label="${x.amount}">${baht(w.amount)}</td>
<td class="actions"><form method="post" action="/demo/bank/payouts/${esc(w.id)}/settle" class="inline">
<button type="submit" name="result" value="succeeded">${x.paid}</button>
<button type="submit" name="result" value="failed" class="danger" data-confirm="${esc(x.failConfirm)}">${x.failed}</button></form></td></tr>`,
    )
    .join('');
  const playerOptions = d.players
    .map((p) => `<option value="${p.id}">${esc(p.phone)} ${esc(p.name)} (${esc(p.bank_code)} ${esc(p.bank_account_no)})</option>`)
    .join('');
  const transferRows = d.transfers
    .map(
      (t) => `<tr><td data-label="${x.reference}"><code>${esc(t.trans_ref)}</code></td><td data-label="${x.fromCol}">${esc(t.sender_account_no)}</td><td data-label="${x.toCol}">${esc(t.receiver_account_no ?? t.receiver_promptpay_id)}</td>
<td class="num" data-label="${x.amount}">${baht(t.amount)}</td><td data-label="${x.time}">${esc(t.transferred_at)}</td><td class="actions"><a href="/demo/bank/slips/${esc(t.trans_ref)}.png" download>${x.slipPng}</a></td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${x.title}</title><link rel="stylesheet" href="/demo/bank/bank.css"><script src="/demo/bank/bank.js" defer></script></head>
<body><main>
${languageLinks(lang, x.language)}
<h1>${x.title} <small>${x.subtitle}</small></h1>
<p class="note">${x.note}</p>
${d.flash ? `<p class="flash ${d.flash.kind}" role="status">${esc(d.flash.text)}</p>` : ''}
${d.slipRef ? `<p class="flash ok" role="status">${x.transferMade} <a href="/demo/bank/slips/${esc(d.slipRef)}.png" download>${x.downloadSlip}</a> ${x.uploadIt}</p>` : ''}
${
  d.gift
    ? `<div class="flash ok" role="status"><p>${x.giftIssued}</p><p><input readonly value="${esc(d.gift.link)}" aria-label="${esc(x.giftLink)}" class="wide" data-select></p>
<p><small>${x.encrypted} <code>${esc(d.gift.encrypted)}</code></small></p></div>`
    : ''
}
<section><h2>${x.qrsTitle}</h2>
${qrRows ? `<table class="cards"><thead><tr><th>${x.bank}</th><th>${x.player}</th><th>${x.amount}</th><th>${x.expiresIn}</th><th>${x.pay}</th></tr></thead><tbody>${qrRows}</tbody></table>` : `<p>${x.noQr}</p>`}
</section>
<section><h2>${x.payoutsTitle}</h2>
${payoutRows ? `<table class="cards"><thead><tr><th>${x.player}</th><th>${x.toAccount}</th><th>${x.amount}</th><th>${x.settle}</th></tr></thead><tbody>${payoutRows}</tbody></table>` : `<p>${x.noPayout}</p>`}
</section>
<section><h2>${x.transferTitle}</h2>
<form method="post" action="/demo/bank/transfer" class="grid">
<label>${x.from}<select name="playerId" required>${playerOptions}</select></label>
<label>${x.amountBaht}<input name="amount" inputmode="decimal" required value="100.00"></label>
<label>${x.to}<select name="receiver"><option value="account">${x.toAccountOption}</option><option value="promptpay">${x.toPromptPay} ${esc(d.promptPayId)}</option><option value="other">${x.toOther}</option></select></label>
<label>${x.made}<select name="minutesAgo"><option value="0">${x.justNow}</option><option value="30">${x.ago30}</option><option value="120">${x.ago120}</option></select></label>
<button type="submit">${x.transfer}</button></form>
${transferRows ? `<table class="cards"><thead><tr><th>${x.reference}</th><th>${x.fromCol}</th><th>${x.toCol}</th><th>${x.amount}</th><th>${x.time}</th><th>${x.slip}</th></tr></thead><tbody>${transferRows}</tbody></table>` : ''}
</section>
<section><h2>${x.giftTitle}</h2>
<form method="post" action="/demo/bank/gift" class="inline"><label>${x.amountBaht} <input name="amount" inputmode="decimal" required value="50.00" size="8"></label> <button type="submit">${x.issueVoucher}</button></form>
</section>
</main></body></html>`;
}

/**
 * At 360 px (a phone, issue 12) nothing overflows sideways and every control is a 44 px tap target: the tables
 * become one card per row below 640 px (each cell says what it is, from data-label), forms stack.
 */
export const BANK_CSS = `${BANK_FONT_FACES}
*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,"Noto Sans Thai","Noto Sans Lao",sans-serif;margin:0;background:#eef2f5;color:#212529;overflow-wrap:anywhere}
main{max-width:960px;margin:0 auto;padding:16px}h1 small{display:block;font-size:.5em;color:#5c636a;font-weight:normal}
section{background:#fff;border-radius:8px;padding:12px 16px;margin:12px 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
table{width:100%;border-collapse:collapse}th,td{padding:6px;border-bottom:1px solid #dee2e6;text-align:left;vertical-align:middle}
.num{text-align:right;font-variant-numeric:tabular-nums}.inline{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.grid{display:grid;gap:8px;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));align-items:end;margin-bottom:12px}
label{display:flex;flex-direction:column;gap:4px}.inline label{flex-direction:row;flex-wrap:wrap;align-items:center;gap:8px}
input,select,button{font:inherit;min-height:44px;max-width:100%}input,select{padding:6px 8px;border:1px solid #adb5bd;border-radius:4px;background:#fff}
.inline input{width:8em}button{min-width:44px;padding:6px 16px;border:0;border-radius:4px;background:#0f7a2e;color:#fff;cursor:pointer}
button.danger{background:#b02a37}a{display:inline-flex;align-items:center;min-height:44px;min-width:44px}
.flash{padding:8px 12px;border-radius:6px}.flash.ok{background:#d1e7dd}.flash.error{background:#f8d7da}
.note{color:#495057}.wide{width:100%}code{word-break:break-all}.langs{display:flex;gap:12px;justify-content:flex-end;align-items:center}
@media (max-width:640px){main{padding:12px 8px}section{padding:12px}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}table.cards thead{display:none}
table.cards tr{padding:8px 0;border-bottom:1px solid #dee2e6}table.cards td{display:flex;justify-content:space-between;gap:12px;padding:4px 0;border:0;text-align:right}
table.cards td::before{content:attr(data-label);font-weight:600;text-align:left;color:#495057;flex:none}
table.cards td.actions{display:block;text-align:left;padding-top:8px}.inline input{flex:1;min-width:0}}`;

/** Countdown, refresh while idle, confirm on dangerous buttons, select-on-focus: all without inline script. */
export const BANK_JS = `(function(){
  var idleSince = Date.now();
  document.addEventListener('input', function(){ idleSince = Date.now(); });
  document.addEventListener('click', function(e){
    var t = e.target;
    if (t && t.getAttribute && t.getAttribute('data-confirm') && !window.confirm(t.getAttribute('data-confirm'))) e.preventDefault();
  });
  document.addEventListener('focusin', function(e){ var t = e.target; if (t && t.hasAttribute && t.hasAttribute('data-select')) t.select(); });
  setInterval(function(){
    document.querySelectorAll('[data-countdown]').forEach(function(el){
      var s = Math.max(0, Number(el.getAttribute('data-countdown')) - 1);
      el.setAttribute('data-countdown', String(s));
      el.textContent = Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
    });
    var busy = document.activeElement && /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName);
    if (!busy && Date.now() - idleSince > 10000 && !document.querySelector('.flash')) location.reload();
  }, 1000);
})();`;
