#!/usr/bin/env node
// Moves files or folders with `git mv` and rewrites every relative import that pointed at them, and every relative
// import inside them, so the tree still resolves. For restructurings (issue 41): one step, no behaviour change.
//
//   node scripts/move.mjs <from> <to> [<from> <to> ...]      (paths relative to the repository root)
//   node scripts/move.mjs --dry <from> <to> ...              prints what would change
//
// A <to> that is an existing folder receives <from> inside it (like mv). Specifiers rewritten: `from '...'`,
// `import('...')`, `require('...')`, `import '...'`, `jest.mock('...')` / `jest.requireActual('...')`. Paths built at
// run time (path.join(__dirname, ...), new URL(..., import.meta.url)) are not: the typecheck and the tests find them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SOURCE_DIRS = ['src', 'server', 'shared', 'test', 'scripts', 'types'];
const SOURCE_FILES = ['webpack.config.ts', 'jest.config.ts', 'eslint.config.mjs'];
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const RESOLVE_EXT = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '/index.ts', '/index.tsx', '/index.js'];
const SPEC = /(\bfrom\s*|\bimport\s*\(\s*(?:\/\*[^*]*\*\/\s*)?|\brequire\s*\(\s*|\bimport\s+|\bjest\.(?:mock|requireActual|unstable_mockModule)\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

const args = process.argv.slice(2);
const dry = args[0] === '--dry';
if (dry) args.shift();
if (args.length === 0 || args.length % 2) {
  console.error('usage: node scripts/move.mjs [--dry] <from> <to> [<from> <to> ...]');
  process.exit(2);
}

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

// Every file of the tree (old paths) and where each moved one goes.
const all = [...SOURCE_DIRS.flatMap((d) => walk(path.join(ROOT, d), [])), ...SOURCE_FILES.map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f))];
const moved = new Map();
const pairs = [];
for (let i = 0; i < args.length; i += 2) {
  const from = path.resolve(ROOT, args[i]);
  let to = path.resolve(ROOT, args[i + 1]);
  if (!fs.existsSync(from)) throw new Error(`no such path: ${args[i]}`);
  if (fs.existsSync(to) && fs.statSync(to).isDirectory()) to = path.join(to, path.basename(from));
  if (fs.existsSync(to)) throw new Error(`already exists: ${path.relative(ROOT, to)}`);
  pairs.push([from, to]);
  if (fs.statSync(from).isDirectory()) {
    for (const f of walk(from, [])) moved.set(f, path.join(to, path.relative(from, f)));
  } else moved.set(from, to);
}
const files = new Set(all);
for (const f of moved.keys()) files.add(f);
const newPath = (p) => moved.get(p) ?? p;

function resolveOld(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const ext of RESOLVE_EXT) {
    if (files.has(base + ext)) return { target: base + ext, ext };
  }
  // './x.js' written for a TypeScript file
  const noJs = base.replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx']) if (noJs !== base && files.has(noJs + ext)) return { target: noJs + ext, ext: '.js->' + ext };
  return null;
}

function respecify(fromNew, targetNew, spec, ext) {
  let rel;
  if (ext === '') rel = path.relative(path.dirname(fromNew), targetNew);
  else if (ext.startsWith('.js->')) rel = path.relative(path.dirname(fromNew), targetNew).replace(/\.tsx?$/, '.js');
  // './folder' meant folder/index.ts: still the folder while the file keeps its name, else the file itself
  else if (ext.startsWith('/index') && /^index\.[^.]+$/.test(path.basename(targetNew))) rel = path.relative(path.dirname(fromNew), path.dirname(targetNew));
  else if (ext.startsWith('/index')) rel = path.relative(path.dirname(fromNew), targetNew).replace(/\.[^./]+$/, '');
  else rel = path.relative(path.dirname(fromNew), targetNew).slice(0, -ext.length);
  rel = rel.split(path.sep).join('/');
  if (rel === '') rel = '.';
  if (!rel.startsWith('.')) rel = './' + rel;
  // keep a trailing slash style out; keep the author's choice of "./x/index" vs "./x" via ext above
  return rel;
}

const edits = [];
for (const file of files) {
  if (!CODE.test(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  const fromNew = newPath(file);
  let changed = false;
  const out = text.replace(SPEC, (whole, lead, quote, spec) => {
    const hit = resolveOld(file, spec);
    if (!hit) return whole;
    const targetNew = newPath(hit.target);
    if (targetNew === hit.target && fromNew === file) return whole;
    const next = respecify(fromNew, targetNew, spec, hit.ext);
    if (next === spec) return whole;
    changed = true;
    return `${lead}${quote}${next}${quote}`;
  });
  if (changed) edits.push([file, out]);
}

if (dry) {
  for (const [from, to] of pairs) console.log(`git mv ${path.relative(ROOT, from)} ${path.relative(ROOT, to)}`);
  for (const [file] of edits) console.log(`rewrite ${path.relative(ROOT, newPath(file))}`);
  process.exit(0);
}
for (const [file, out] of edits) fs.writeFileSync(file, out);
for (const [from, to] of pairs) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  execFileSync('git', ['mv', path.relative(ROOT, from), path.relative(ROOT, to)], { cwd: ROOT, stdio: 'inherit' });
}
console.log(`moved ${moved.size} file(s); rewrote imports in ${edits.length} file(s)`);
