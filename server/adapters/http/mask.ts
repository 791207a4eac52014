/**
 * Masking for the request/answer log of outside-service calls (docs/providers/README.md "Log and masking"). Each
 * adapter names the fields that hold personal data by key; the client also replaces every secret it was given
 * (API keys) wherever it appears in a line, so a key echoed back by a provider is not logged either.
 */
export type MaskRule = 'account' | 'name' | 'secret' | 'phone';

/** Digits but the last four become x: "1234-5678-90" -> "xxxx-xxx7-890"... keeps separators and length. */
export function maskAccount(v: string): string {
  let keep = 4;
  const out: string[] = [];
  for (let i = v.length - 1; i >= 0; i--) {
    const c = v[i];
    if (/[0-9]/.test(c)) {
      out.push(keep > 0 ? c : 'x');
      keep--;
    } else out.push(c);
  }
  return out.reverse().join('');
}

/** A person's or company's name: its first letter, then ***. */
export function maskName(v: string): string {
  const s = v.trim();
  return s ? `${[...s][0]}***` : s;
}

function apply(rule: MaskRule, v: string): string {
  switch (rule) {
    case 'account':
    case 'phone':
      return maskAccount(v);
    case 'name':
      return maskName(v);
    case 'secret':
      return '[secret]';
  }
}

/**
 * A copy of `value` with the string fields under the named keys masked (keys compared case-insensitively). A rule
 * on a key whose value is an object applies to the strings inside it, unless a key inside has a rule of its own;
 * an `account` rule on an object is not inherited (an account object holds names and types too).
 */
export function maskFields(value: unknown, rules: Record<string, MaskRule>, inherited?: MaskRule): unknown {
  if (typeof value === 'string') return inherited ? apply(inherited, value) : value;
  if (Array.isArray(value)) return value.map((v) => maskFields(v, rules, inherited));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const own = rules[k.toLowerCase()];
      const rule = own ?? (inherited === 'account' ? undefined : inherited);
      out[k] = typeof v === 'string' ? (rule ? apply(rule, v) : v) : maskFields(v, rules, own ?? (inherited === 'account' ? undefined : inherited));
    }
    return out;
  }
  return value;
}

/** Lower-cased keys for maskFields. */
export function maskRules(rules: Record<string, MaskRule>): Record<string, MaskRule> {
  return Object.fromEntries(Object.entries(rules).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Every occurrence of each secret (of 4 characters or more) replaced by [secret]. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[secret]');
  return out;
}
