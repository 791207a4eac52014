import fs from 'node:fs';
import path from 'node:path';

import en from '../../locales/en.json';
import la from '../../locales/la.json';
import th from '../../locales/th.json';
import { localePart, USER_SECTIONS } from './localeParts';

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const locales = { th, la, en } as Record<string, Record<string, unknown>>;
const sections = Object.keys(th);

/**
 * What a visitor sees before the player's area (and so before its texts) is loaded: the shell from the entry on,
 * the public pages and layout, the banners, toasts and errors, the guest chat. Every file these import,
 * statically or lazily, is scanned too, except the router's lazy imports (they lead to the player's area).
 */
const PUBLIC_ROOTS = [
  'src/index.tsx',
  'src/features/session',
  'src/features/register',
  'src/features/howto',
  'src/features/contact',
  'src/features/terminated',
  'src/features/not-found',
  'src/features/chat/ChatLauncher.tsx',
  'src/app/layout/PublicLayout.tsx',
  'src/app/layout/TopBar.tsx',
  'src/app/layout/DemoBanner.tsx',
  'src/app/layout/OfflineBanner.tsx',
  'src/app/AppProviders.tsx',
  'src/app/Toaster.tsx',
  'src/app/RouteError.tsx',
  'src/components/ChunkError.tsx',
  'src/app/pwa/register.ts',
];
const NOT_FOLLOWED_LAZILY = new Set([path.join(SRC, 'app/router.tsx')]);

/**
 * User sections a public file may name, and why that is safe. errorText() tries a slip reason after errors.<CODE>:
 * slip reasons only come back from the player's deposits, and where the user part is not loaded the text falls
 * back to errors.GENERIC.
 */
const ALLOWED: Record<string, string[]> = { 'src/core/notify.ts': ['slipReasons'] };

const isSource = (file: string) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.split(path.sep).includes('test');

function filesOf(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.statSync(abs).isDirectory()) return [abs];
  return fs
    .readdirSync(abs, { recursive: true })
    .map((name) => path.join(abs, String(name)))
    .filter(isSource);
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((file) => /\.tsx?$/.test(file) && fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

/** The public roots and every source file they import, transitively. */
function publicFiles(): string[] {
  const seen = new Set<string>();
  const queue = PUBLIC_ROOTS.flatMap(filesOf);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    const specs = [
      ...[...code.matchAll(/\b(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]/g)].map((m) => m[1]),
      ...[...code.matchAll(/^import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]),
      ...(NOT_FOLLOWED_LAZILY.has(file) ? [] : [...code.matchAll(/\bimport\(\s*(?:\/\*[\s\S]*?\*\/\s*)?['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1])),
    ];
    for (const spec of specs) {
      const target = resolveImport(file, spec);
      if (target) queue.push(target);
    }
  }
  return [...seen].sort();
}

/** Whether `key` is a text or a group of texts in th.json ('login', 'login.title', 'register.steps'). */
function isKey(key: string): boolean {
  let node: unknown = th;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * The text sections a file names: string literals that are keys ('login.title', i18nKey="nav.home", labelKey:
 * 'nav.home') and template literals that start with a section (`errors.${code}`).
 */
function sectionsNamedIn(code: string): string[] {
  const named = new Set<string>();
  for (const [, literal] of code.matchAll(/['"]([A-Za-z]+\.[\w.]+)['"]/g)) {
    if (isKey(literal)) named.add(literal.split('.')[0]);
  }
  for (const [, section] of code.matchAll(/`([A-Za-z]+)\.[\w.]*\$\{/g)) {
    if (sections.includes(section)) named.add(section);
  }
  return [...named];
}

describe('the texts split into a public and a user part (src/core/localeParts.ts)', () => {
  it('lists only sections the locale files have', () => {
    expect(USER_SECTIONS.filter((section) => !sections.includes(section))).toEqual([]);
    expect(new Set(USER_SECTIONS).size).toBe(USER_SECTIONS.length);
  });

  it.each(['th', 'la', 'en'])('%s: the two parts share no section and together are the whole file', (lng) => {
    const whole = locales[lng];
    const publicPart = localePart(whole, 'public');
    const userPart = localePart(whole, 'user');
    expect(Object.keys(publicPart).filter((section) => section in userPart)).toEqual([]);
    expect({ ...publicPart, ...userPart }).toEqual(whole);
    expect(Object.keys(userPart).sort()).toEqual([...USER_SECTIONS].sort());
    // The shell's own texts are never left to the user part.
    expect(Object.keys(publicPart)).toEqual(expect.arrayContaining(['app', 'nav', 'login', 'errors', 'chunkError', 'offline']));
  });

  it('finds the public screens and the shell, and not the player\'s area', () => {
    const files = publicFiles().map((file) => path.relative(ROOT, file));
    expect(files).toEqual(
      expect.arrayContaining(['src/app/start.tsx', 'src/features/session/LoginPage.tsx', 'src/features/chat/ChatPanel.tsx', 'src/components/LanguageSwitcher.tsx']),
    );
    expect(files.filter((file) => /UserLayout|HomePage|DepositModal|StatementPage/.test(file))).toEqual([]);
  });

  it('public screens and the shell use public sections only', () => {
    const misplaced = publicFiles().flatMap((file) => {
      const rel = path.relative(ROOT, file);
      return sectionsNamedIn(fs.readFileSync(file, 'utf8'))
        .filter((section) => USER_SECTIONS.includes(section) && !ALLOWED[rel]?.includes(section))
        .map((section) => `${rel} uses ${section}.*, which is in the user part`);
    });
    expect(misplaced).toEqual([]);
  });

  it('sees a user section in a public file (the check can fail)', () => {
    expect(sectionsNamedIn(`t('deposit.title'); <Trans i18nKey="home.hello" />; t(\`wheel.\${id}\`)`).sort()).toEqual(['deposit', 'home', 'wheel']);
    expect(sectionsNamedIn(`import './home.css'; const file = "errors.json"; t('deposit.noSuchKey')`)).toEqual([]);
  });
});
