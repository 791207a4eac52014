import { formatSatang } from '../../../ledger/money';

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
}

const baht = (satang: number) => `${formatSatang(Number(satang))} ฿`;

export function renderBankPage(d: BankPageData): string {
  const left = (iso: string) => Math.max(0, Math.ceil((Date.parse(iso) - d.now.getTime()) / 1000));
  const qrRows = d.qrs
    .map(
      (q) => `<tr><td data-label="Bank">${esc(q.bank_code)}</td><td data-label="Player">${esc(q.phone)} ${esc(q.name)}</td><td class="num" data-label="Amount">${baht(q.amount)}</td>
<td data-label="Expires in"><span data-countdown="${left(q.expires_at)}">${left(q.expires_at)} s</span></td>
<td class="actions"><form method="post" action="/demo/bank/qr/${esc(q.id)}/pay" class="inline">
<input name="amount" inputmode="decimal" placeholder="${esc(formatSatang(q.amount))}" aria-label="Amount to pay (empty: the QR's amount)" size="8">
<button type="submit">Pay</button></form></td></tr>`,
    )
    .join('');
  const payoutRows = d.withdrawals
    .map(
      (w) => `<tr><td data-label="Player">${esc(w.phone)}</td><td data-label="To account">${esc(w.bank_code)} ${esc(w.bank_account_no)}</td><td class="num" data-label="Amount">${baht(w.amount)}</td>
<td class="actions"><form method="post" action="/demo/bank/payouts/${esc(w.id)}/settle" class="inline">
<button type="submit" name="result" value="succeeded">Paid</button>
<button type="submit" name="result" value="failed" class="danger" data-confirm="Fail this payout? The money returns to the wallet.">Failed</button></form></td></tr>`,
    )
    .join('');
  const playerOptions = d.players
    .map((p) => `<option value="${p.id}">${esc(p.phone)} ${esc(p.name)} (${esc(p.bank_code)} ${esc(p.bank_account_no)})</option>`)
    .join('');
  const transferRows = d.transfers
    .map(
      (t) => `<tr><td data-label="Reference"><code>${esc(t.trans_ref)}</code></td><td data-label="From">${esc(t.sender_account_no)}</td><td data-label="To">${esc(t.receiver_account_no ?? t.receiver_promptpay_id)}</td>
<td class="num" data-label="Amount">${baht(t.amount)}</td><td data-label="Time">${esc(t.transferred_at)}</td><td class="actions"><a href="/demo/bank/slips/${esc(t.trans_ref)}.png" download>Slip PNG</a></td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo bank</title><link rel="stylesheet" href="/demo/bank/bank.css"><script src="/demo/bank/bank.js" defer></script></head>
<body><main>
<h1>Demo bank <small>simulated payments for the demo wallet</small></h1>
<p class="note">Everything here is play money. Payments and payouts reach the wallet through the signed payment webhook, like a real gateway's.</p>
${d.flash ? `<p class="flash ${d.flash.kind}" role="status">${esc(d.flash.text)}</p>` : ''}
${d.slipRef ? `<p class="flash ok" role="status">Transfer made. <a href="/demo/bank/slips/${esc(d.slipRef)}.png" download>Download the slip</a> and upload it in the wallet.</p>` : ''}
${
  d.gift
    ? `<div class="flash ok" role="status"><p>Gift voucher issued. Paste this link in the wallet:</p><p><input readonly value="${esc(d.gift.link)}" aria-label="Gift link" class="wide" data-select></p>
<p><small>Encrypted as the app sends it: <code>${esc(d.gift.encrypted)}</code></small></p></div>`
    : ''
}
<section><h2>QR codes waiting for payment</h2>
${qrRows ? `<table class="cards"><thead><tr><th>Bank</th><th>Player</th><th>Amount</th><th>Expires in</th><th>Pay</th></tr></thead><tbody>${qrRows}</tbody></table>` : '<p>No QR is waiting. Create one in the wallet\'s deposit window.</p>'}
</section>
<section><h2>Withdrawals waiting for payout</h2>
${payoutRows ? `<table class="cards"><thead><tr><th>Player</th><th>To account</th><th>Amount</th><th>Settle</th></tr></thead><tbody>${payoutRows}</tbody></table>` : '<p>No payout is waiting.</p>'}
</section>
<section><h2>Transfer to the operator (makes a slip)</h2>
<form method="post" action="/demo/bank/transfer" class="grid">
<label>From (a player's registered account)<select name="playerId" required>${playerOptions}</select></label>
<label>Amount (baht)<input name="amount" inputmode="decimal" required value="100.00"></label>
<label>To<select name="receiver"><option value="account">The operator's bank account</option><option value="promptpay">The operator's PromptPay ${esc(d.promptPayId)}</option><option value="other">Someone else's account (slip will be refused)</option></select></label>
<label>Made<select name="minutesAgo"><option value="0">just now</option><option value="30">30 minutes ago</option><option value="120">2 hours ago (too old to upload)</option></select></label>
<button type="submit">Transfer</button></form>
${transferRows ? `<table class="cards"><thead><tr><th>Reference</th><th>From</th><th>To</th><th>Amount</th><th>Time</th><th>Slip</th></tr></thead><tbody>${transferRows}</tbody></table>` : ''}
</section>
<section><h2>Gift voucher (mobile wallet)</h2>
<form method="post" action="/demo/bank/gift" class="inline"><label>Amount (baht) <input name="amount" inputmode="decimal" required value="50.00" size="8"></label> <button type="submit">Issue voucher</button></form>
</section>
</main></body></html>`;
}

/**
 * At 360 px (a phone, issue 12) nothing overflows sideways and every control is a 44 px tap target: the tables
 * become one card per row below 640 px (each cell says what it is, from data-label), forms stack.
 */
export const BANK_CSS = `*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,"Noto Sans Thai",sans-serif;margin:0;background:#eef2f5;color:#212529;overflow-wrap:anywhere}
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
.note{color:#495057}.wide{width:100%}code{word-break:break-all}
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
