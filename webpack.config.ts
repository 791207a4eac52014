import fs from 'node:fs';
import path from 'node:path';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CompressionPlugin from 'compression-webpack-plugin';
import zlib from 'node:zlib';
import { InjectManifest } from 'workbox-webpack-plugin';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';

import { localePart } from './src/core/localeParts';

/** Emits static files from public/ as they are (the offline page, the icons); html-webpack-plugin handles the rest. */
class CopyPublicFiles {
  constructor(private readonly files: string[]) {}
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('CopyPublicFiles', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CopyPublicFiles', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const file of this.files) {
          const source = path.resolve(__dirname, 'public', file);
          compilation.fileDependencies.add(source);
          compilation.emitAsset(file, new webpack.sources.RawSource(fs.readFileSync(source)));
        }
      });
    });
  }
}

/**
 * `<link rel="preload">` in each page for what its first screen fetches only after main.js has run (docs/client.md
 * "First screen"): every page, the default language's public texts (every route waits for them); index.html and the
 * login page, also the public layout and login route (the usual first screen: / and a visitor's /user both end
 * there); the player's area page (USER_PAGE), nothing more, since a player's /user/* draws the player's area and the
 * login's files would only take bandwidth from it; the home page (HOME_PAGE), the player's texts, layout and home.
 * Preloaded, they download alongside the entry chunks instead of
 * one round trip after another. Files are found by chunk name, so the hashes follow. Their CSS is a stylesheet (the
 * prerendered screens are drawn from it), and on the login and home pages the scripts are only named, for their loader to
 * fetch after the first paint.
 */
function firstScreenChunks(market: 'th' | 'la'): Record<string, string[]> {
  const texts = `locale-${market}-json-public`;
  const login = [texts, 'layout-public', 'route-login'];
  // The home page's screen is drawn from the player's layout and home styles, and its loader fetches their scripts
  // and the player's texts after the first paint, beside the entry scripts.
  const home = [texts, `locale-${market}-json-user`, 'layout-user', 'route-home'];
  return { 'index.html': login, [LOGIN_PAGE]: login, [USER_PAGE]: [texts], [HOME_PAGE]: home };
}

class PreloadFirstScreen {
  constructor(
    /** Output page -> the chunks it preloads. */
    private readonly pages: Record<string, string[]>,
    private readonly fonts: RegExp[] = [],
  ) {}
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.compilation.tap('PreloadFirstScreen', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadFirstScreen', (data) => {
        const chunkNames = this.pages[data.outputName];
        if (!chunkNames) return data;
        // The prerendered pages fetch no script before their first paint: the loader preloads them after it.
        const script = (href: string) =>
          LOADER_PAGES.includes(data.outputName)
            ? HtmlWebpackPlugin.createHtmlTagObject('meta', { name: 'preload-script', content: href })
            : HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href });
        const publicPath = compilation.outputOptions.publicPath === 'auto' ? '/' : String(compilation.outputOptions.publicPath ?? '/');
        const links = [];
        // Every file the named import loads, the parts it shares with other routes too (a shared chunk found only
        // once the route's own file had run was a third round trip), but not the entry's own files.
        const seen = new Set(compilation.entrypoints.get('main')?.getFiles() ?? []);
        for (const name of chunkNames) {
          const chunks = compilation.namedChunkGroups.get(name)?.chunks ?? [compilation.namedChunks.get(name)];
          if (!chunks[0]) throw new Error(`PreloadFirstScreen: no chunk named ${name}`);
          for (const file of chunks.flatMap((chunk) => [...chunk!.files])) {
            if (seen.has(file)) continue;
            seen.add(file);
            // The CSS is a stylesheet, not a preload: the prerendered screens are drawn from it before any script.
            if (file.endsWith('.css')) links.push(HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href: publicPath + file }));
            if (file.endsWith('.js')) links.push(script(publicPath + file));
          }
        }
        // Fonts are fetched in CORS mode, so their preloads say crossorigin or the browser fetches them twice.
        for (const file of Object.keys(compilation.assets).filter((f) => this.fonts.some((re) => re.test(f)))) {
          links.push(HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: '', href: publicPath + file }));
        }
        data.headTags.push(...links);
        return data;
      });
    });
  }
}

/** Where the `prerender` configuration writes the screens' renderer (Node), for the web build to run. */
const PRERENDER_DIR = path.resolve(__dirname, 'node_modules/.cache/prerender');
const PRERENDER_FILE = path.join(PRERENDER_DIR, 'screens.cjs');

/**
 * Runs the screens' renderer (built just before by the `prerender` configuration) and emits their variants as
 * prerender/login.json and prerender/home.json, which the server puts into the login and home pages for GET /login
 * and GET /user/home (server/http/spa.ts, docs/client.md "First screen").
 */
class EmitPrerenderedScreens {
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('EmitPrerenderedScreens', (compilation) => {
      compilation.fileDependencies.add(PRERENDER_FILE);
      compilation.hooks.processAssets.tapPromise({ name: 'EmitPrerenderedScreens', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        delete require.cache[PRERENDER_FILE];
        const { renderLoginScreens, renderHomeScreens } = require(PRERENDER_FILE) as typeof import('./src/prerender');
        // One after the other: both switch the renderer's one i18next instance between languages.
        const login = await renderLoginScreens();
        const home = await renderHomeScreens();
        compilation.emitAsset('prerender/login.json', new webpack.sources.RawSource(JSON.stringify(login)));
        compilation.emitAsset('prerender/home.json', new webpack.sources.RawSource(JSON.stringify(home)));
      });
    });
  }
}

/** The page the server sends for GET /login with the prerendered screen in its root (server/http/spa-prerender.ts). */
/** The pages' favicon, drawn by scripts/draw-icons.ts (a PNG: see FAVICON there). */
const FAVICON_FILE = './public/icons/favicon-32.png';
const LOGIN_PAGE = 'prerender/login.html';
/** The page the server sends for the player's area, /user and below (server/http/spa.ts): index.html without the login's preloads. */
const USER_PAGE = 'prerender/user.html';
/** The page the server sends for GET /user/home with the prerendered home in its root (server/http/spa-prerender.ts). */
const HOME_PAGE = 'prerender/home.html';
/** The pages whose entry scripts the boot loader starts after the prerendered screen's first paint. */
const LOADER_PAGES = [LOGIN_PAGE, HOME_PAGE];

/**
 * On the login and home pages the app's entry scripts are started by `boot-loader` (src/app/firstPaint.ts) after the first
 * paint, instead of `<script defer>`: they become `<meta name="entry-script">` (nothing is fetched before the
 * paint; Lighthouse counts every script that finished loading before it towards LCP) and the loader adds them as
 * scripts, in order (docs/client.md "First screen").
 */
class EntryScriptsAfterLoader {
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.compilation.tap('EntryScriptsAfterLoader', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('EntryScriptsAfterLoader', (data) => {
        if (!LOADER_PAGES.includes(data.outputName)) return data;
        const isLoader = (tag: (typeof data.headTags)[number]) => tag.tagName === 'script' && /\/boot-loader\.[0-9a-f]+\.js$/.test(String(tag.attributes.src));
        if (data.headTags.filter(isLoader).length !== 1) throw new Error(`EntryScriptsAfterLoader: ${data.outputName} has no boot-loader script`);
        data.headTags = data.headTags.map((tag) =>
          tag.tagName === 'script' && !isLoader(tag) ? HtmlWebpackPlugin.createHtmlTagObject('meta', { name: 'entry-script', content: String(tag.attributes.src) }) : tag,
        );
        return data;
      });
    });
  }
}

/**
 * The web fonts the first screen's text is set in (Thai and Latin, both weights; Lao for the language switcher's
 * ລາວ), preloaded with it.
 */
const FIRST_SCREEN_FONTS = [/^assets\/noto-sans-(thai-thai|latin)-(400|700)-normal\.[0-9a-f]+\.woff2$/, /^assets\/noto-sans-lao-lao-400-normal\.[0-9a-f]+\.woff2$/];

/**
 * The SPA build. Flags (spec §1): MARKET=th|lao (Lao-market variant), VARIANT=web|mobile (mobile/iframe variant),
 * exposed to code as typed constants in src/core/build.ts. Production output is content-hashed, split per route,
 * and pre-compressed (.br, .gz) for the server to serve as is.
 */
type WebConfiguration = webpack.Configuration & { devServer?: DevServerConfiguration };

export default (_env: unknown, argv: { mode?: string }): WebConfiguration | WebConfiguration[] => {
  const production = argv.mode !== 'development';
  const market = process.env.MARKET ?? 'th';
  const variant = process.env.VARIANT ?? 'web';
  if (market !== 'th' && market !== 'lao') throw new Error(`MARKET must be th or lao, got ${market}`);
  if (variant !== 'web' && variant !== 'mobile') throw new Error(`VARIANT must be web or mobile, got ${variant}`);
  const apiPort = process.env.API_PORT ?? '3001';

  const resolve: webpack.ResolveOptions = {
    extensions: ['.tsx', '.ts', '.js'],
    // react-router's package exports name only its development build (route checks, warnings); production
    // builds take the production build it ships beside it: same API, less code, and creating the router no
    // longer runs the development checks over every route (issue 13's profile: ~20 ms of the boot).
    alias: production
      ? {
          'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs'),
          'react-router/dom$': path.resolve(__dirname, 'node_modules/react-router/dist/production/dom-export.mjs'),
        }
      : {},
  };
  /** The app's TypeScript and the language files' parts, for the browser build and the prerender alike. */
  const sourceRules: webpack.RuleSetRule[] = [
    {
      test: /\.[tj]sx?$/,
      exclude: /node_modules/,
      use: {
        loader: 'swc-loader',
        options: {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
            target: 'es2020',
          },
        },
      },
    },
    // locales/<lng>.json?part=public|user: only that part's top-level sections (src/core/localeParts.ts), so
    // /login downloads the shell's and public pages' texts and the player's area loads the rest.
    ...(['public', 'user'] as const).map((part) => ({
      test: /[\\/]locales[\\/][a-z]+\.json$/,
      resourceQuery: new RegExp(`^\\?part=${part}$`),
      type: 'json' as const,
      parser: { parse: (text: string) => localePart(JSON.parse(text) as Record<string, unknown>, part) },
    })),
  ];
  const sourcePlugins = () => [
    new webpack.DefinePlugin({
      'process.env.MARKET': JSON.stringify(market),
      'process.env.VARIANT': JSON.stringify(variant),
      'process.env.APP_VERSION': JSON.stringify(require('./package.json').version),
    }),
    // moment ships every locale; keep only Thai, Lao (lo) and English (built in).
    new webpack.ContextReplacementPlugin(/moment[/\\]locale$/, /^\.\/(th|lo)$/),
  ];

  /**
   * The login screen's renderer, for Node (production only): the same sources without styles or emitted files, one
   * file, run by EmitPrerenderedScreens in the web build, which waits for it (`dependencies`).
   */
  const prerender: webpack.Configuration = {
    name: 'prerender',
    mode: 'production',
    target: 'node20',
    entry: './src/prerender/index.ts',
    output: { path: PRERENDER_DIR, filename: path.basename(PRERENDER_FILE), library: { type: 'commonjs2' }, clean: true },
    devtool: false,
    resolve,
    // ws's optional native helpers (socket.io-client's Node transport, never used here).
    externals: { bufferutil: 'commonjs bufferutil', 'utf-8-validate': 'commonjs utf-8-validate' },
    module: {
      rules: [
        ...sourceRules,
        // Styles and files are the browser build's: here an import of one yields its text or name, and nothing is written.
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(woff2?|png|jpe?g|svg|gif|webp)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    plugins: [...sourcePlugins(), new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    optimization: { minimize: false },
    performance: { hints: false },
  };

  const web: WebConfiguration = {
    name: 'web',
    ...(production ? { dependencies: ['prerender'] } : {}),
    mode: production ? 'production' : 'development',
    entry: {
      // The login page's first script (EntryScriptsAfterLoader, src/bootLoader.ts): a file of its own, no runtime shared.
      'boot-loader': { import: './src/bootLoader.ts', runtime: false },
      main: './src/index.tsx',
      // The staff console (src/staff/, served at /staff): its own page and runtime, so it shares no file with
      // the player's app (see splitChunks below) and index.html never loads it.
      staff: { import: './src/staff/index.tsx', runtime: false },
    },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    // hidden: the maps are written for error tracking, but no bundle points at them and the server never serves them.
    devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    resolve,
    module: {
      rules: [
        ...sourceRules,
        { test: /\.css$/, use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'] },
        { test: /\.(woff2?|png|jpe?g|svg|gif|webp)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      ...sourcePlugins(),
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: FAVICON_FILE, chunks: ['main'] }),
      ...(production
        ? [
            new HtmlWebpackPlugin({ template: './public/index.html', filename: LOGIN_PAGE, favicon: FAVICON_FILE, chunks: ['boot-loader', 'main'] }),
            new HtmlWebpackPlugin({ template: './public/index.html', filename: USER_PAGE, favicon: FAVICON_FILE, chunks: ['main'] }),
            new HtmlWebpackPlugin({ template: './public/index.html', filename: HOME_PAGE, favicon: FAVICON_FILE, chunks: ['boot-loader', 'main'] }),
            new EntryScriptsAfterLoader(),
          ]
        : []),
      ...(production ? [new EmitPrerenderedScreens()] : []),
      ...(production ? [new PreloadFirstScreen(firstScreenChunks(market === 'lao' ? 'la' : 'th'), FIRST_SCREEN_FONTS)] : []),
      new HtmlWebpackPlugin({ template: './src/staff/staff.html', filename: 'staff.html', chunks: ['staff'] }),
      // The web manifest is not here: the server answers it with the operator's name (server/http/pwa).
      new CopyPublicFiles(['offline.html', 'offline.js', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png']),
      ...(production
        ? [
            new MiniCssExtractPlugin({ filename: 'assets/[name].[contenthash:10].css', chunkFilename: 'assets/[name].[contenthash:10].css' }),
            // The service worker (src/sw.ts -> sw.js; docs/client.md "Installable app"): production only, so the
            // dev server never runs one. It precaches the player app's files: not the staff console, not the
            // compressed twins (the server picks those per request), not maps, not the .woff fonts (every browser
            // with service workers takes the .woff2), not index.html (navigations go to the network; the offline
            // page is the fallback).
            new InjectManifest({
              swSrc: './src/sw.ts',
              swDest: 'sw.js',
              excludeChunks: ['staff'],
              exclude: [/\.map$/, /\.(?:gz|br)$/, /^staff\.html$/, /^index\.html$/, /\.woff$/, /^prerender\//, /boot-loader/],
              // Hashed names change with their content: no revision query needed.
              dontCacheBustURLsMatching: /^assets\//,
            }),
            new CompressionPlugin({ filename: '[path][base].gz', algorithm: 'gzip', test: /\.(js|css|html|svg|json|webmanifest)$/, exclude: /^prerender\//, threshold: 1024, minRatio: 0.9, compressionOptions: { level: 9 } }),
            new CompressionPlugin({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              test: /\.(js|css|html|svg|json|webmanifest)$/,
              exclude: /^prerender\//,
              threshold: 1024,
              minRatio: 0.9,
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } } as zlib.ZlibOptions,
            }),
          ]
        : []),
    ],
    optimization: {
      minimizer: [new (require('terser-webpack-plugin'))({ minify: require('terser-webpack-plugin').swcMinify, extractComments: false })],
      // The staff entry is left out of splitting: a chunk shared with it would cut the player's vendor chunk in
      // two (more requests on the first route) for a page no player opens.
      // The libraries in parts of at most ~300 KB before minifying (5 files, ~2.5 KB more gzip on /login): the
      // browser compiles each script in a task of its own, and the one 363 KB vendor file took 49 ms of it on
      // /user/home (a 200 ms task on Lighthouse's 4x slower phone); the largest part now takes ~17 ms.
      splitChunks: {
        chunks: (chunk) => chunk.name !== 'staff' && chunk.name !== 'boot-loader',
        cacheGroups: { defaultVendors: { test: /[\\/]node_modules[\\/]/, priority: -10, reuseExistingChunk: true, maxSize: 300_000 } },
      },
      runtimeChunk: 'single',
    },
    performance: { hints: false },
    devServer: {
      historyApiFallback: { rewrites: [{ from: /^\/staff(?:\/|$)/, to: '/staff.html' }] },
      hot: true,
      port: Number(process.env.PORT ?? 8080),
      proxy: [{ context: ['/api', '/socket.io', '/healthz', '/demo', '/manifest.webmanifest'], target: `http://127.0.0.1:${apiPort}`, ws: true }],
    },
  };
  return production ? [prerender, web] : web;
};
