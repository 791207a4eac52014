// @ts-check
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module, so that jest can load it too
const path = require('node:path');

/**
 * Layers (docs/server.md "Code layout", docs/client.md "Layout" and its "Where does my change go"):
 * every import points down. Each zone names the folder of the importing file and the folders it may not import;
 * the longest matching zone applies. Paths are resolved from the real files, so `../other/x` and
 * `../../features/other/x` are both caught. Tests and test support are outside the zones.
 * - `sideways`: a folder of this zone imports no sibling folder (a feature imports no other feature); `'index'`: only
 *   through the sibling's index.ts (the server's plugins);
 * - `typeOnly`: files whose types (never values) a lower layer may import: the store's RootState/AppDispatch are
 *   the sum of the features' states, so they can only be declared at the top.
 */
const SPA_ALL = ['src/app', 'src/core', 'src/features', 'src/components', 'src/lib', 'src/staff', 'src/prerender', 'src/test'];
const below = (...allowed) => SPA_ALL.filter((area) => !allowed.includes(area));
const LAYER_ZONES = [
  { from: 'src/prerender', deny: ['src/staff', 'src/test'] },
  { from: 'src/app', deny: ['src/staff', 'src/prerender', 'src/test'] },
  { from: 'src/staff', deny: below('src/staff', 'src/lib') },
  { from: 'src/features', deny: below('src/features', 'src/core', 'src/components', 'src/lib'), sideways: true },
  { from: 'src/components', deny: below('src/components', 'src/core', 'src/lib') },
  { from: 'src/core', deny: below('src/core', 'src/lib') },
  { from: 'src/lib', deny: below('src/lib') },
];
// The server (docs/server.md "Code layout"). Entry points and app.ts wire everything and are in no zone; test
// support, the demo data and the simulators' pages are theirs alone; a feature reaches another only through its index.ts.
// (as imported: no extension)
const SERVER_TOP = ['server/app', 'server/start', 'server/cluster', 'server/server', 'server/spa-build', 'server/cli'];
const NOT_PRODUCTION = ['server/test', 'server/demo', 'server/simulators'];
const ABOVE_MONEY = ['server/plugins', 'server/http', 'server/jobs', 'server/realtime', ...NOT_PRODUCTION, ...SERVER_TOP];
const ABOVE_CORE = ['server/ledger', 'server/transfers', 'server/wagering', 'server/adapters', ...ABOVE_MONEY];
LAYER_ZONES.push(
  { from: 'server/http', deny: [...NOT_PRODUCTION, ...SERVER_TOP] },
  {
    from: 'server/plugins',
    deny: ['server/http', ...NOT_PRODUCTION, ...SERVER_TOP],
    sideways: 'index',
    // Known and still to untangle (issue 41): the invite earnings' qualification and the bonus engine call each other.
    except: ['server/plugins/bonus/engine.ts -> server/plugins/invite/qualify', 'server/plugins/invite/qualify.ts -> server/plugins/bonus/settings', 'server/plugins/invite/qualify.ts -> server/plugins/bonus/zone'],
  },
  { from: 'server/demo', deny: ['server/test', 'server/simulators', 'server/http', ...SERVER_TOP] },
  { from: 'server/simulators', deny: ['server/test', 'server/demo', 'server/http', ...SERVER_TOP] },
  { from: 'server/jobs', deny: ['server/plugins', 'server/http', 'server/realtime', ...NOT_PRODUCTION, ...SERVER_TOP] },
  { from: 'server/realtime', deny: ['server/plugins', 'server/http', ...NOT_PRODUCTION, ...SERVER_TOP] },
  ...['server/ledger', 'server/transfers', 'server/wagering'].map((from) => ({ from, deny: ABOVE_MONEY })),
  { from: 'server/adapters', deny: ['server/ledger', 'server/transfers', 'server/wagering', ...ABOVE_MONEY] },
  ...['server/settings', 'server/db'].map((from) => ({ from, deny: ABOVE_CORE })),
  // The bottom: helpers that know no table and no setting.
  ...['server/lib', 'server/config.ts', 'server/errors.ts'].map((from) => ({ from, deny: ['server/db', 'server/settings', ...ABOVE_CORE] })),
);
const TYPE_ONLY = ['src/app/store.ts'];

const rule = {
  meta: { type: 'problem', messages: { upward: '{{from}} may not import {{to}} (imports point down: eslint.config.mjs LAYER_ZONES)' }, schema: [] },
  create(context) {
    const root = context.cwd ?? path.resolve('.');
    const rel = (p) => path.relative(root, p).split(path.sep).join('/');
    const file = rel(path.resolve(context.filename));
    const inside = (p, area) => p === area || p.startsWith(area + '/');
    const zone = LAYER_ZONES.filter((z) => inside(file, z.from)).sort((a, b) => b.from.length - a.from.length)[0];
    if (!zone) return {};
    const check = (node) => {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = rel(path.resolve(path.dirname(path.resolve(context.filename)), spec));
      const typeOnly = node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
      if (typeOnly && TYPE_ONLY.some((t) => to === t.replace(/\.tsx?$/, '') || to === t)) return;
      let denied = zone.deny.find((area) => inside(to, area));
      if (!denied && zone.sideways && inside(to, zone.from)) {
        const mine = file.slice(zone.from.length + 1).split('/')[0];
        const theirs = to.slice(zone.from.length + 1).split('/')[0];
        // sideways: 'index': another area only through its index.ts (`../wallet` or `../wallet/index`)
        const viaIndex = zone.sideways === 'index' && (to === `${zone.from}/${theirs}` || to === `${zone.from}/${theirs}/index`);
        if (mine !== theirs && !viaIndex) denied = `${zone.from}/${theirs}${zone.sideways === 'index' ? ' except through its index.ts' : ''}`;
      }
      if (denied && zone.except?.includes(`${file} -> ${to}`)) denied = undefined;
      if (denied) context.report({ node, messageId: 'upward', data: { from: zone.from === file ? file : `${zone.from}/${file.slice(zone.from.length + 1).split('/')[0]}`, to: denied } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

module.exports = { rule, LAYER_ZONES, TYPE_ONLY };
