#!/usr/bin/env node
// The import graph of server/ or src/, read from the code's own imports: each layer's size, the imports that point up
// the layer list, and the files and folders that import each other in a circle. Issue 41's proof: run it on the tree
// before the restructuring and after, with the same rules (the table below), and compare.
//
//   node scripts/import-graph.mjs server          (run from the repository root to measure: the root is the cwd)
//   node scripts/import-graph.mjs src
//   node scripts/import-graph.mjs server --json   the same figures as JSON; with no tree named, both trees
//
// Every relative specifier counts: `import`, `import type`, `export ... from`, `import()`, `typeof import()`,
// `require()`. They are read with the TypeScript parser the repository already has, so comments and strings that
// look like imports are not counted. Imports of packages, CSS and JSON are not edges.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');

// ---------------------------------------------------------------------------------------------------------------
// The rules, one table per tree. Layers run top to bottom: a file may import its own layer or any lower one.
// A layer's members are top-level folders or files of the tree. `today` maps a file of the tree as it was before
// issue 41 to the member it counts as, so the old tree and the new one are measured alike (first match wins;
// `**/` is any folders, `*` any name part). `tests` are left out of the graph; a production file importing one is
// listed as a violation. `sideways` names the layer whose areas (second-level folders) reach each other only
// through the area's index.ts; `never` lists [from layer, to layer] pairs forbidden although downward.
const TREES = {
  server: {
    layers: [
      ['entry points', ['cli', 'start.ts', 'cluster.ts', 'server.ts', 'spa-build.ts']],
      ['app', ['app.ts']],
      // Wired by app.ts, start.ts and the CLIs only; they build on the features (the demo seeds through their
      // repositories, the demo bank pays through deposits' domain), and no feature imports them.
      ['simulators, demo', ['simulators', 'demo']],
      ['http (platform plugins)', ['http']],
      ['features', ['plugins', 'features']],
      ['jobs', ['jobs']],
      ['realtime', ['realtime']],
      ['money core', ['ledger', 'transfers', 'wagering', 'players']],
      ['adapters', ['adapters']],
      ['settings, db', ['settings', 'db']],
      ['lib, config', ['lib', 'config.ts', 'errors.ts']],
    ],
    today: [
      ['plugins/auth.ts', 'http'],
      ['plugins/security.ts', 'http'],
      ['plugins/ops/**', 'http'],
      ['plugins/spa*.ts', 'http'],
      ['plugins/host-frame.ts', 'http'],
      ['plugins/pwa/**', 'http'],
      ['plugins/game-sim/**', 'simulators'],
      ['plugins/deposits/demo-bank/**', 'simulators'],
      ['db/demo.ts', 'demo'],
      ['plugins/*/demo.ts', 'demo'],
      ['**/*-cli.ts', 'cli'],
      ['lib/lease.ts', 'jobs'],
      ['wagering/poller.ts', 'jobs'],
    ],
    tests: ['**/*.test.ts', '**/*.fixture.ts', '**/test-support.ts', '**/*-test-support.ts', 'test/**'],
    sideways: 'features',
    never: [],
  },
  src: {
    layers: [
      ['entry, prerender', ['index.tsx', 'bootLoader.ts', 'sw.ts', 'prerender']],
      ['app wiring', ['app']],
      ['staff', ['staff']],
      ['features', ['features']],
      ['components', ['components']],
      ['core', ['core']],
      ['lib', ['lib']],
    ],
    // src/app's wiring: store, router, layouts, start, providers, hosts. The rest of today's src/app is the core.
    today: [
      ['app/store.ts', 'app'],
      ['app/router.tsx', 'app'],
      ['app/routeHandle.ts', 'app'],
      ['app/RouteError.tsx', 'app'],
      ['app/UserContactPage.tsx', 'app'], // a route composed from two features: the router's, not the core's
      ['app/layout/**', 'app'],
      ['app/start.tsx', 'app'],
      ['app/handover.tsx', 'app'],
      ['app/AppRoot.tsx', 'app'],
      ['app/AppProviders.tsx', 'app'],
      ['app/LocaleSync.tsx', 'app'],
      ['app/Toaster.tsx', 'app'],
      ['app/ModalHost.tsx', 'app'],
      ['app/SnackbarHost.tsx', 'app'],
      ['app/host/**', 'app'],
      ['app/guard.ts', 'app'], // the router's navigation guard
      ['app/bootData.ts', 'app'], // start's seeding of the store
      ['app/persist.ts', 'app'], // the store's storage
      ['app/useWalletPush.ts', 'app'], // mounted by the user layout
      ['app/walletSocket.ts', 'app'],
      ['app/firstPaint.ts', 'app'],
      ['app/nextTask.ts', 'app'],
      ['app/fonts.ts', 'app'],
      ['app/pwa/**', 'app'],
      ['app/**', 'core'],
    ],
    tests: ['**/*.test.ts', '**/*.test.tsx', '**/testSupport.ts', '**/testData.ts', 'test/**', '**/test/**'],
    // The store's RootState / AppDispatch are the sum of the features' states, so they are declared at the top; a
    // type-only import of them is allowed (the lint rule's TYPE_ONLY, scripts/lint/layers.cjs) and counted apart.
    typesFrom: ['app/store.ts'],
    // In the SPA every import of another feature is upward (not only of its internals): it is in the upward list.
    crossArea: 'features',
  },
};
const SHARED = 'shared'; // below every layer of both trees
// ---------------------------------------------------------------------------------------------------------------

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const RESOLVE = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.d.ts', '/index.ts', '/index.tsx', '/index.js'];

function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) { re += '(?:.*/)?'; i += 2; }
    else if (glob.startsWith('**', i)) { re += '.*'; i += 1; }
    else if (glob[i] === '*') re += '[^/]*';
    else re += glob[i].replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (CODE.test(e.name)) out.push(p);
  }
  return out;
}

const countLines = (text) => (text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** Every module specifier in a file, with the line its statement starts on. */
function specifiers(file, text) {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out = [];
  const add = (node, lit, typeOnly) => {
    if (lit && (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit))) {
      out.push({ spec: lit.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, typeOnly });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const allTypes = c && !c.name && c.namedBindings && ts.isNamedImports(c.namedBindings)
        && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, Boolean(c?.isTypeOnly || allTypes));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const c = node.exportClause;
      const allTypes = c && ts.isNamedExports(c) && c.elements.length > 0 && c.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, Boolean(node.isTypeOnly || allTypes));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        add(node, node.arguments[0], false);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function resolveSpec(fromFile, spec, exists) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const ext of RESOLVE) if (exists(base + ext)) return base + ext;
  const noJs = base.replace(/\.[mc]?js$/, '');
  if (noJs !== base) for (const ext of ['.ts', '.tsx', '.mts', '.cts']) if (exists(noJs + ext)) return noJs + ext;
  return null;
}

/** Tarjan's strongly connected components; returns those with more than one node, each sorted, largest first. */
function circles(nodes, edges) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) strong(v);
  return out.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

function measure(treeName, root) {
  const rules = TREES[treeName];
  const treeDir = path.join(root, treeName);
  if (!fs.existsSync(treeDir)) throw new Error(`no ${treeName}/ under ${root}`);
  const today = rules.today.map(([glob, member]) => [globToRegExp(glob), member, glob]);
  const tests = rules.tests.map(globToRegExp);
  const memberLayer = new Map();
  rules.layers.forEach(([, members], i) => members.forEach((m) => memberLayer.set(m, i)));
  const sharedLayer = rules.layers.length;
  const layerName = (i) => (i === sharedLayer ? SHARED : rules.layers[i][0]);

  const rel = (abs) => path.relative(root, abs).split(path.sep).join('/');
  const inTree = (abs) => rel(abs).startsWith(`${treeName}/`);
  /** What a file counts as: test, or { member, layer, area } (area: the second-level folder, for the sideways rule). */
  const classify = (abs) => {
    const r = rel(abs);
    if (r.startsWith(`${SHARED}/`)) return { member: SHARED, layer: sharedLayer };
    if (!inTree(abs)) return { member: null, layer: null, outside: true };
    const p = r.slice(treeName.length + 1);
    if (tests.some((re) => re.test(p))) return { test: true };
    const hit = today.find(([re]) => re.test(p));
    const parts = p.split('/');
    const member = hit ? hit[1] : parts[0];
    const layer = memberLayer.get(member);
    if (layer === undefined) return { member: null, layer: null, unassigned: true };
    return { member, layer, area: parts.length > 2 ? `${parts[0]}/${parts[1]}` : null, index: parts.length === 3 && /^index\.[jt]sx?$/.test(parts[2]) };
  };
  // The folder-level unit the issue counts: a second-level folder, else a top-level folder, else a top-level file.
  const unitOf = (abs) => {
    const parts = rel(abs).split('/');
    if (parts[0] !== treeName) return null;
    return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.length === 3 ? parts.slice(0, 2).join('/') : parts.join('/');
  };

  const treeFiles = walk(treeDir);
  const known = new Set([...treeFiles, ...walk(path.join(root, SHARED))]);
  const exists = (p) => known.has(p) || (CODE.test(p) && fs.existsSync(p) && fs.statSync(p).isFile());

  const layers = rules.layers.map(([name, members]) => ({
    name,
    files: 0,
    lines: 0,
    members: members.map((m) => ({ name: m, files: 0, lines: 0 })),
  }));
  const testFiles = [], unassigned = [], production = [];
  for (const f of treeFiles) {
    const c = classify(f);
    if (c.test) { testFiles.push(f); continue; }
    if (c.unassigned) { unassigned.push(rel(f)); continue; }
    production.push(f);
  }

  const upward = [], typesUp = [], sideways = [], forbidden = [], toTests = [], unresolved = [], leaving = [];
  const fileEdges = new Map(), runtimeEdges = new Map(), unitEdges = new Map();
  const never = (rules.never ?? []).map(([a, b]) => `${a}\n${b}`);
  const link = (map, a, b, detail) => {
    if (!map.has(a)) map.set(a, new Map());
    const m = map.get(a);
    if (!m.has(b)) m.set(b, []);
    if (detail) m.get(b).push(detail);
  };
  for (const f of production) {
    const text = fs.readFileSync(f, 'utf8');
    const c = classify(f);
    const L = layers[c.layer];
    L.files++; L.lines += countLines(text);
    const mem = L.members.find((m) => m.name === c.member);
    mem.files++; mem.lines += countLines(text);
    fileEdges.set(rel(f), fileEdges.get(rel(f)) ?? new Map());
    for (const { spec, line, typeOnly } of specifiers(f, text)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveSpec(f, spec, exists);
      const at = { from: rel(f), line, to: target ? rel(target) : spec, typeOnly };
      if (!target && fs.existsSync(path.resolve(path.dirname(f), spec))) continue; // CSS, JSON, images: no edge
      if (!target) { unresolved.push(at); continue; }
      const t = classify(target);
      if (t.test) { toTests.push(at); continue; }
      if (t.outside) { leaving.push(at); continue; }
      if (t.unassigned) continue; // listed once as a file; its edges are not judged
      if (inTree(target)) {
        link(fileEdges, rel(f), rel(target));
        if (!typeOnly) link(runtimeEdges, rel(f), rel(target));
        const [ua, ub] = [unitOf(f), unitOf(target)];
        if (ua !== ub) link(unitEdges, ua, ub, at);
      }
      const area = rules.sideways ?? rules.crossArea;
      const crossArea = c.member === t.member && layerName(c.layer) === area && c.area && t.area && c.area !== t.area;
      if (t.layer < c.layer && typeOnly && (rules.typesFrom ?? []).some((file) => at.to === `${treeName}/${file}`)) typesUp.push(at);
      else if (t.layer < c.layer) upward.push({ ...at, fromLayer: layerName(c.layer), toLayer: layerName(t.layer) });
      else if (crossArea && rules.crossArea) upward.push({ ...at, fromLayer: c.area, toLayer: t.area });
      else if (crossArea && rules.sideways && !t.index) sideways.push({ ...at, fromArea: c.area, toArea: t.area });
      else if (never.includes(`${layerName(c.layer)}\n${layerName(t.layer)}`)) {
        forbidden.push({ ...at, fromLayer: layerName(c.layer), toLayer: layerName(t.layer) });
      }
    }
  }

  const asSets = (map) => new Map([...map].map(([k, v]) => [k, [...v.keys()]]));
  const fileCircles = circles(fileEdges.keys(), asSets(fileEdges));
  const runtimeCircles = circles(fileEdges.keys(), asSets(runtimeEdges)); // type-only imports vanish when compiled
  const units = new Set(production.map(unitOf));
  const unitCircles = circles(units, asSets(unitEdges)).map((members) => {
    const inside = new Set(members);
    const edges = members.flatMap((a) => [...(unitEdges.get(a) ?? new Map())]
      .filter(([b]) => inside.has(b))
      .map(([b, lines]) => ({ from: a, to: b, lines: lines.length })));
    return { members, edges };
  });
  const byPlace = (a, b) => a.from.localeCompare(b.from) || a.line - b.line;
  const testLines = testFiles.reduce((n, f) => n + countLines(fs.readFileSync(f, 'utf8')), 0);
  return {
    tree: treeName,
    root,
    layers,
    production: { files: production.length, lines: layers.reduce((n, l) => n + l.lines, 0) },
    tests: { files: testFiles.length, lines: testLines },
    unassigned: unassigned.sort(),
    upward: upward.sort(byPlace),
    typesUp: typesUp.sort(byPlace),
    sideways: sideways.sort(byPlace),
    forbidden: forbidden.sort(byPlace),
    toTests: toTests.sort(byPlace),
    leaving: leaving.sort(byPlace),
    unresolved: unresolved.sort(byPlace),
    fileCircles: {
      files: fileCircles.reduce((n, c) => n + c.length, 0),
      circles: fileCircles,
      runtimeFiles: runtimeCircles.reduce((n, c) => n + c.length, 0),
      runtimeCircles,
    },
    folderCircles: {
      units: units.size,
      inCircle: unitCircles.reduce((n, c) => n + c.members.length, 0),
      circles: unitCircles,
    },
  };
}

const n = (x) => x.toLocaleString('en-US');
const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);
const arrow = (e) => `  ${e.from}:${e.line} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`;

function print(r) {
  const out = [];
  out.push(`# ${r.tree}/ import graph (root ${r.root})`);
  out.push(`production: ${n(r.production.files)} files, ${n(r.production.lines)} lines; tests left out: ${n(r.tests.files)} files, ${n(r.tests.lines)} lines`);
  out.push(`upward import lines: ${r.upward.length}` + (TREES[r.tree].typesFrom ? ` (besides ${r.typesUp.length} type-only imports of ${TREES[r.tree].typesFrom.join(', ')}, allowed)` : '') + (TREES[r.tree].sideways ? `; sideways (another area's non-index file): ${r.sideways.length}` : '')
    + (TREES[r.tree].never ? `; other forbidden: ${r.forbidden.length}` : '') + `; production -> test: ${r.toTests.length}`);
  out.push(`files in a circle: ${r.fileCircles.files} (${r.fileCircles.circles.length} circles; without type-only imports `
    + `${r.fileCircles.runtimeFiles}); folders and top-level files in a circle: `
    + `${r.folderCircles.inCircle} of ${r.folderCircles.units} (${r.folderCircles.circles.length} circles)`);
  out.push('', '## Layers, top to bottom (files, lines)');
  r.layers.forEach((l, i) => {
    out.push(`${lpad(i + 1, 2)}. ${pad(l.name, 26)} ${lpad(n(l.files), 5)} ${lpad(n(l.lines), 8)}`);
    if (l.members.length > 1) for (const m of l.members) if (m.files) out.push(`      ${pad(m.name, 24)} ${lpad(n(m.files), 5)} ${lpad(n(m.lines), 8)}`);
  });
  out.push(`    ${pad(SHARED + ' (below all)', 26)}`);
  if (r.unassigned.length) out.push('', `## Files in no layer (${r.unassigned.length}): add them to the table`, ...r.unassigned.map((f) => `  ${f}`));
  out.push('', `## Upward import lines (${r.upward.length})`);
  for (const e of r.upward) out.push(`${arrow(e)}   [${e.fromLayer} -> ${e.toLayer}]`);
  if (TREES[r.tree].sideways) {
    out.push('', `## Sideways: one area importing another area's non-index file (${r.sideways.length})`);
    for (const e of r.sideways) out.push(arrow(e));
  }
  for (const [a, b] of TREES[r.tree].never ?? []) {
    const hits = r.forbidden.filter((e) => e.fromLayer === a && e.toLayer === b);
    out.push('', `## Forbidden although downward: ${a} -> ${b} (${hits.length})`, ...hits.map(arrow));
  }
  out.push('', `## Production files importing test files (${r.toTests.length})`);
  for (const e of r.toTests) out.push(arrow(e));
  if (r.leaving.length) out.push('', `## Imports leaving ${r.tree}/ other than to ${SHARED}/ (${r.leaving.length})`, ...r.leaving.map(arrow));
  if (r.unresolved.length) out.push('', `## Relative imports that resolve to no file (${r.unresolved.length})`, ...r.unresolved.map(arrow));
  out.push('', `## File circles: ${r.fileCircles.files} files in ${r.fileCircles.circles.length}`);
  r.fileCircles.circles.forEach((c, i) => out.push(`  ${i + 1}. (${c.length}) ${c.join(', ')}`));
  out.push(`  without type-only imports: ${r.fileCircles.runtimeFiles} files in ${r.fileCircles.runtimeCircles.length}`);
  r.fileCircles.runtimeCircles.forEach((c, i) => out.push(`  ${i + 1}. (${c.length}) ${c.join(', ')}`));
  out.push('', `## Folder circles: ${r.folderCircles.inCircle} of ${r.folderCircles.units} folders and top-level files in ${r.folderCircles.circles.length}`);
  r.folderCircles.circles.forEach((c, i) => {
    out.push(`  ${i + 1}. (${c.members.length}) ${c.members.join(', ')}`);
    out.push('     its arrows (import lines):');
    const from = new Map();
    for (const e of c.edges) from.set(e.from, [...(from.get(e.from) ?? []), `${e.to} (${e.lines})`]);
    for (const [a, bs] of from) out.push(`       ${a} -> ${bs.join(', ')}`);
  });
  return out.join('\n');
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const trees = args.filter((a) => !a.startsWith('--'));
for (const t of trees) if (!TREES[t]) { console.error(`usage: node scripts/import-graph.mjs [server|src] [--json]  (unknown tree: ${t})`); process.exit(2); }
const results = (trees.length ? trees : Object.keys(TREES)).map((t) => measure(t, process.cwd()));
if (json) console.log(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
else console.log(results.map(print).join('\n\n'));
