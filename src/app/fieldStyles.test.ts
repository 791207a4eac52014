import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 40 item 11: the gift-link field (type="url") showed as the browser's bare 21 px box because the shared
 * field rule in styles.css lists input types one by one. Every typed text field the SPA renders must be in it.
 */
const TEXT_TYPES = ['text', 'tel', 'password', 'number', 'url', 'email', 'search'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : [];
  });
}

it('styles every text-like input type the screens use', () => {
  const root = join(__dirname, '..');
  const used = new Set(sources(root).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/type="([a-z]+)"/g)].map((match) => match[1])));
  const css = readFileSync(join(__dirname, 'styles.css'), 'utf8');
  // The rule whose selector list starts with `select,` (the shared look of fields).
  const selector = /(^|\n)select,([^{]+)\{/.exec(css)?.[2] ?? '';
  const missing = TEXT_TYPES.filter((type) => used.has(type) && !selector.includes(`input[type='${type}']`));
  expect(used.has('url')).toBe(true);
  expect(missing).toEqual([]);
});

it('lays a checkbox row (.field--inline) out as a row even without .field: the age checkbox beside its label', () => {
  const css = readFileSync(join(__dirname, 'styles.css'), 'utf8');
  const rule = /(^|\n)\.field--inline \{([^}]*)\}/.exec(css)?.[2] ?? '';
  expect(rule).toMatch(/display:\s*flex/);
  expect(rule).toMatch(/flex-direction:\s*row/);
  // The registration's age row is such a row without .field.
  const bankStep = readFileSync(join(__dirname, '..', 'features', 'register', 'steps', 'BankStep.tsx'), 'utf8');
  expect(bankStep).toMatch(/className="field--inline register__age"/);
});
