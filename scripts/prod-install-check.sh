#!/usr/bin/env bash
# The production-install proof (issue 44; docs/server.md "Production build"): the checkout's files plus build/ and
# dist/ copied into a fresh folder, `npm ci --omit=dev` there, and the compiled server started with plain node:
# it logs the demo player in, moves money wallet -> game, and stops cleanly on SIGTERM. Then the refusals: a changed
# server source, a missing dist/index.html and a missing build each stop `npm run start:prod` with one line, exit 1.
#
#   scripts/prod-install-check.sh           # needs `npm run build` done
#   scripts/prod-install-check.sh --build   # runs `npm run build` first
#   KEEP_WORK=1 scripts/prod-install-check.sh   # keeps the temp folder (printed) for a look afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"

T0=$(date +%s%N)
STEP_T=$T0
STEP_NAME=""
secs() { awk -v ns="$1" 'BEGIN { printf "%.1f", ns / 1e9 }'; }
finish_step() { [ -n "$STEP_NAME" ] && printf '    (%s s)\n' "$(secs $(($(date +%s%N) - STEP_T)))"; return 0; }
step() { finish_step; STEP_NAME="$1"; STEP_T=$(date +%s%N); printf -- '--- %s\n' "$1"; }
fail() { printf 'prod-install-check: FAILED: %s\n' "$*" >&2; exit 1; }

BUILD=0
for arg in "$@"; do
  case "$arg" in
    --build) BUILD=1 ;;
    *) fail "unknown argument $arg (only --build)" ;;
  esac
done

if [ "$BUILD" = 1 ]; then
  step "npm run build"
  npm run build
fi

step "the build in the checkout is there and current"
node -e '
  const v = require("./scripts/build-manifest.cjs").checkBuild(process.cwd());
  if (!v.ok) { console.error(`prod-install-check: FAILED: ${v.reason} (or pass --build)`); process.exit(1); }
'

WORK="$(mktemp -d "${TMPDIR:-/tmp}/prod-install.XXXXXX")"
APP="$WORK/app"
LOG="$WORK/server.log"
NPM_PID=""
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null || true
  [ -n "$NPM_PID" ] && kill -KILL "$NPM_PID" 2>/dev/null || true
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

step "copy the checkout (tracked and untracked files, no node_modules, no .git) and build/, dist/ into $APP"
command -v git >/dev/null || fail "git is needed to list the checkout's files"
mkdir -p "$APP"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  xargs -0 cp --parents -a -t "$APP"
cp -a build dist "$APP/"
[ ! -e "$APP/node_modules" ] && [ ! -e "$APP/.git" ] || fail "the copy holds node_modules or .git"

# better-sqlite3 is the one dependency with an install script (package.json allowScripts), and with no prebuilt binary
# reachable here it compiles from source: 100-250 s of this check on a busy machine. The checkout's own npm ci built
# the same version for the same node, so by default the copy installs without scripts and takes that addon;
# PROD_CHECK_COMPILE=1 runs the install scripts instead (the whole install as an operator's machine does it).
ADDON=node_modules/better-sqlite3/build/Release/better_sqlite3.node
if [ -z "${PROD_CHECK_COMPILE:-}" ] && [ -f "$ADDON" ]; then
  step "npm ci --omit=dev --ignore-scripts (in the copy), better-sqlite3's addon from the checkout's install"
  (cd "$APP" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund) >"$WORK/npm-ci.log" 2>&1 || { cat "$WORK/npm-ci.log"; fail "npm ci --omit=dev failed"; }
  [ "$(node -p 'require("./node_modules/better-sqlite3/package.json").version')" = "$(cd "$APP" && node -p 'require("./node_modules/better-sqlite3/package.json").version')" ] ||
    fail "the copy's better-sqlite3 is another version than the checkout's: run with PROD_CHECK_COMPILE=1"
  mkdir -p "$APP/$(dirname "$ADDON")" && cp -a "$ADDON" "$APP/$ADDON"
else
  step "npm ci --omit=dev --no-audit --no-fund (in the copy)"
  (cd "$APP" && npm ci --omit=dev --no-audit --no-fund) >"$WORK/npm-ci.log" 2>&1 || { cat "$WORK/npm-ci.log"; fail "npm ci --omit=dev failed"; }
  if grep -iE 'allowScripts|install scripts? (were|was) (not run|skipped|blocked)' "$WORK/npm-ci.log"; then fail "npm reported install scripts it did not run (package.json allowScripts)"; fi
fi
grep -E '^added ' "$WORK/npm-ci.log" || true
(cd "$APP" && node -e 'new (require("better-sqlite3"))(":memory:").close()') || fail "better-sqlite3 does not load: its install script did not build it"

step "no build or test tool in the production install"
# npm keeps a devDependency that a dependency names as an optional peer (typescript, for i18next and react-i18next;
# its types): the lockfile marks those devOptional. They go here, so that what follows proves the server runs without.
for kept in $(cd "$APP" && node -e 'const l = require("./package-lock.json"); console.log(Object.keys(l.packages).filter((k) => k && l.packages[k].devOptional).join(" "))'); do
  if [ -e "$APP/$kept" ]; then echo "    npm ci --omit=dev kept $kept (devOptional: a devDependency and an optional peer); removed"; rm -rf "${APP:?}/$kept"; fi
done
for tool in tsx webpack webpack-cli jest esbuild typescript ts-node ts-jest @swc/core; do
  [ ! -e "$APP/node_modules/$tool" ] || fail "node_modules/$tool is installed with --omit=dev"
done
echo "    absent: tsx webpack webpack-cli jest esbuild typescript ts-node ts-jest @swc/core"

step "every package the compiled server requires resolves in the production install"
(cd "$APP" && node -e '
  const fs = require("node:fs"), path = require("node:path"), { builtinModules } = require("node:module");
  const builtins = new Set(builtinModules);
  const missing = new Set();
  let files = 0, packages = new Set();
  const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith(".js")) {
      files++;
      for (const [, spec] of fs.readFileSync(p, "utf8").matchAll(/\brequire\("([^".][^"]*)"\)/g)) {
        if (spec.startsWith("node:") || builtins.has(spec)) continue;
        packages.add(spec);
        try { require.resolve(spec, { paths: [path.dirname(p)] }); } catch { missing.add(`${spec} (from ${path.relative(".", p)})`); }
      }
    }
  } };
  walk("build/server");
  if (missing.size) { console.error("not installed: " + [...missing].join(", ")); process.exit(1); }
  console.log(`    ${files} compiled files, ${packages.size} packages required, all installed`);
') || fail "the compiled server requires a package the production install lacks"

step "the launcher's freshness check in the copy"
touch "$APP/server/config.ts" # newer than the build, same content: hashed and accepted
(cd "$APP" && node -e '
  const t = process.hrtime.bigint();
  const v = require("./scripts/build-manifest.cjs").checkBuild(process.cwd());
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!v.ok) { console.error(v.reason); process.exit(1); }
  console.log(`    accepted in ${ms.toFixed(0)} ms, hashed: ${v.hashed.join(", ") || "nothing (no input newer than the build)"}`);
') || fail "the copy's sources do not match the build's manifest"

step "npm run start:prod (DEMO=on, PORT=0, a temp DATA_DIR), until /readyz answers"
START_T=$(date +%s%N)
(cd "$APP" && exec env -u DATABASE_URL -u REDIS_URL -u WORKERS -u DIST_DIR -u NODE_ENV -u SKIP_SPA_BUILD -u PAYMENT_WEBHOOK_SECRET \
  DEMO=on PORT=0 HOST=127.0.0.1 DATA_DIR="$WORK/data" JWT_SECRET="prod-install-check-jwt-secret-0123456789" LOG_LEVEL=info \
  npm run start:prod) >"$LOG" 2>&1 &
NPM_PID=$!
URL=""
for _ in $(seq 1 240); do
  URL="$(grep -oE 'listening on http://[^ ]+' "$LOG" | head -1 | cut -d' ' -f3 || true)"
  [ -n "$URL" ] && break
  kill -0 "$NPM_PID" 2>/dev/null || { cat "$LOG"; fail "start:prod exited before listening"; }
  sleep 0.25
done
[ -n "$URL" ] || { cat "$LOG"; fail "start:prod did not listen within 60 s"; }
SERVER_PID="$(grep -oE '"pid":[0-9]+' "$LOG" | head -1 | cut -d: -f2)"
[ -n "$SERVER_PID" ] || { cat "$LOG"; fail "no pid in the server's log"; }
for _ in $(seq 1 240); do
  curl -sf "$URL/readyz" >/dev/null && break
  sleep 0.25
done
curl -sf "$URL/readyz" >/dev/null || { cat "$LOG"; fail "$URL/readyz never answered 200"; }
echo "    $URL ready in $(secs $(($(date +%s%N) - START_T))) s (server pid $SERVER_PID)"

# A field of a JSON answer: json '<expression on v>' < answer
json() { node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const v = JSON.parse(s); console.log(eval(process.argv[1])); })' "$1"; }
api() { # api METHOD PATH [BODY]: the answer's body; fails on a non-2xx
  local out
  out="$(curl -sS -X "$1" "$URL$2" -H "authorization: Bearer ${TOKEN:-}" -H 'content-type: application/json' ${3:+--data "$3"} -w '\n%{http_code}')"
  local code="${out##*$'\n'}"
  [ "${code:0:1}" = 2 ] || fail "$1 $2 answered $code: ${out%$'\n'*}"
  printf '%s' "${out%$'\n'*}"
}

step "log in as the demo player, move 25 baht wallet -> game"
TOKEN="$(api POST /api/login '{"username":"0812345678","password":"demo1234"}' | json 'v.token')"
BEFORE="$(api GET /api/wallet)"
GAME="$(printf '%s' "$BEFORE" | json 'v.slots[0].code')"
WALLET_BEFORE="$(printf '%s' "$BEFORE" | json 'Math.round(v.wallet.amount * 100)')"
api GET "/api/wallet/activate/$GAME" >/dev/null
MOVED="$(api POST /api/wallet/transfer "{\"from\":\"WALLET\",\"to\":\"$GAME\",\"amount\":25}" | json 'v.status')"
[ "$MOVED" = SUCCESS ] || fail "the transfer answered $MOVED"
AFTER="$(api GET /api/wallet)"
WALLET_AFTER="$(printf '%s' "$AFTER" | json 'Math.round(v.wallet.amount * 100)')"
GAME_AFTER="$(printf '%s' "$AFTER" | json "Math.round(v.slots.find((s) => s.code === '$GAME').amount * 100)")"
[ $((WALLET_BEFORE - WALLET_AFTER)) = 2500 ] || fail "the wallet went from $WALLET_BEFORE to $WALLET_AFTER satang, not 2500 less"
[ "$GAME_AFTER" = 2500 ] || fail "the game $GAME holds $GAME_AFTER satang, not 2500"
echo "    wallet $((WALLET_BEFORE / 100)) -> $((WALLET_AFTER / 100)) baht, game $GAME 0 -> $((GAME_AFTER / 100)) baht"

step "a slip read on a worker thread of the compiled server (no tsx to register)"
(cd "$APP" && node -e '
  const { createSlipReader } = require("./build/server/server/plugins/deposits/slip-pool.js");
  const reader = createSlipReader({ threads: 1 });
  reader.read(Buffer.from("%PDF-1.7 not a picture"), 1e6).then(
    () => { console.error("a PDF read as a slip"); process.exit(1); },
    (e) => { if (e.code !== "SLIP_INVALID_FILE") { console.error(e); process.exit(1); } console.log("    refused on the thread: " + e.code); },
  ).finally(() => reader.close());
') || fail "the compiled slip reader thread did not answer"

step "SIGTERM to the server: a graceful close, exit 0"
STOP_T=$(date +%s%N)
kill -TERM "$SERVER_PID"
RC=0
wait "$NPM_PID" || RC=$?
NPM_PID=""
SERVER_PID=""
[ "$RC" = 0 ] || { tail -20 "$LOG"; fail "start:prod exited $RC after SIGTERM"; }
echo "    exited 0 in $(secs $(($(date +%s%N) - STOP_T))) s"

step "the operator's CLIs without tsx: npm run operator (compiled), on the same database"
OP="$(cd "$APP" && DEMO=on DATA_DIR="$WORK/data" npm run --silent operator -- site 2>&1)" || fail "npm run operator -- site failed: $OP"
[ "$OP" = "site: active" ] || fail "npm run operator -- site said '$OP'"
echo "    operator site: $OP"
RC=0
OP="$(cd "$APP" && DEMO=on DATA_DIR="$WORK/data" npm run --silent operator -- check 2>&1)" || RC=$?
[ "$RC" = 1 ] || fail "operator check exited $RC on a demo setup, not 1: $OP"
grep -q 'DEMO' <<<"$OP" || fail "operator check named no DEMO finding: $OP"
echo "    operator check on the demo setup: exit 1, $(grep -c . <<<"$OP") lines"
OP="$(cd "$APP" && DEMO=on DATA_DIR="$WORK/data" npm run --silent audit:ledger 2>&1)" || fail "npm run audit:ledger failed: $OP"
echo "    audit:ledger: $(tail -1 <<<"$OP")"

refused() { # refused '<expected line>': start:prod must print it and exit 1, never listening
  local out rc=0
  out="$(cd "$APP" && env -u DIST_DIR DEMO=on PORT=0 DATA_DIR="$WORK/data" npm run --silent start:prod 2>&1)" || rc=$?
  [ "$rc" = 1 ] || fail "start:prod exited $rc, not 1: $out"
  grep -qF -- "$1" <<<"$out" || fail "start:prod said '$out', not '$1'"
  echo "    exit 1: $(grep -F -- 'Cannot start' <<<"$out")"
}

step "refused: a server source changed after the build"
cp -a "$APP/server/app.ts" "$WORK/app.ts.kept"
printf '\n// changed after the build\n' >>"$APP/server/app.ts"
refused 'Cannot start: server/app.ts changed since the last build of the server; run `npm run build`'
cp -a "$WORK/app.ts.kept" "$APP/server/app.ts"

step "refused: dist/index.html missing"
mv "$APP/dist/index.html" "$WORK/index.html.kept"
refused 'Cannot start: no built SPA (dist/index.html is missing); run `npm run build` first'
mv "$WORK/index.html.kept" "$APP/dist/index.html"

step "refused: build/server missing"
mv "$APP/build/server" "$WORK/server.kept"
refused 'Cannot start: no compiled server (build/server/server/start.js is missing); run `npm run build` first'

finish_step
STEP_NAME=""
printf -- '--- production install check passed in %s s\n' "$(secs $(($(date +%s%N) - T0)))"
