import './looks.css';

/**
 * A bank's mark drawn for this product: its initials on the bank's colour (no copied logos). Decorative: the
 * bank's name is always written next to it, so the mark is hidden from assistive technology.
 * Colours are the banks' brand hues, darkened where white initials would fall under 4.5:1 contrast.
 */
const MARKS: Record<string, { bg: string; fg?: string; text?: string }> = {
  SCB: { bg: '#4e2e7f' },
  KBANK: { bg: '#0b6b22', text: 'K' },
  KTB: { bg: '#00689d' },
  TMB: { bg: '#1c3f94', text: 'ttb' },
  BBL: { bg: '#1e4598' },
  GSB: { bg: '#b5106a' },
  BAY: { bg: '#fec43b', fg: '#3d2e00' },
  BCEL: { bg: '#a31d24' },
  LDB: { bg: '#0d5c9e' },
  APB: { bg: '#1f6e36' },
  JDB: { bg: '#a50e26' },
  WW: { bg: '#c2410c' },
  E2P: { bg: '#37474f' },
};

/** Dark hues for a bank the table does not know yet (the operator can add banks): one per code, stable. */
const FALLBACK = ['#37474f', '#4a148c', '#0d47a1', '#1b5e20', '#7a4100', '#880e4f'];

export function bankMarkStyle(code: string): { bg: string; fg: string; text: string } {
  const known = MARKS[code];
  if (known) return { bg: known.bg, fg: known.fg ?? '#ffffff', text: known.text ?? code.slice(0, 4) };
  let hash = 0;
  for (const ch of code) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return { bg: FALLBACK[hash % FALLBACK.length], fg: '#ffffff', text: code.slice(0, 3) };
}

export function BankMark({ code, size = 40 }: { code: string; size?: number }) {
  const { bg, fg, text } = bankMarkStyle(code);
  return (
    <span
      className="bank-mark"
      aria-hidden="true"
      data-bank={code}
      style={{ background: bg, color: fg, width: size, height: size, fontSize: size * (text.length > 3 ? 0.26 : text.length > 2 ? 0.3 : 0.4) }}
    >
      {text}
    </span>
  );
}
