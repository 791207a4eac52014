/**
 * Adds translations to locales/{th,la,en}.json in one quick read-merge-write, so several people can add
 * keys at once without overwriting each other. Usage:
 *   node --import tsx scripts/locale-merge.ts fragment.json
 * where fragment.json is { "th": {...}, "la": {...}, "en": {...} } with the same key paths in all three.
 * Existing keys are replaced by the fragment's value; nothing else is touched.
 */
import fs from 'node:fs';
import path from 'node:path';

type Tree = { [k: string]: string | Tree };
const LANGS = ['th', 'la', 'en'] as const;

const flat = (o: Tree, pre = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? flat(v, `${pre}${k}.`) : [`${pre}${k}`]));

function merge(into: Tree, from: Tree): Tree {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    into[k] = typeof v === 'object' && typeof cur === 'object' ? merge(cur, v) : v;
  }
  return into;
}

const file = process.argv[2];
if (!file) throw new Error('usage: locale-merge.ts fragment.json');
const fragment = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Tree>;
const keys = LANGS.map((l) => {
  if (!fragment[l]) throw new Error(`fragment has no "${l}"`);
  return flat(fragment[l]).sort().join('\n');
});
if (new Set(keys).size !== 1) throw new Error('the fragment must have the same keys in th, la and en');
for (const l of LANGS) {
  const target = path.join(__dirname, '..', 'locales', `${l}.json`);
  const cur = JSON.parse(fs.readFileSync(target, 'utf8')) as Tree;
  fs.writeFileSync(target, `${JSON.stringify(merge(cur, fragment[l]), null, 2)}\n`);
}
console.log(`merged ${flat(fragment.en).length} keys into locales/{th,la,en}.json`);
