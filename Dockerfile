# The player wallet as a container image (docs/going-live.md "Or in containers"; compose.yaml runs it with
# PostgreSQL, Redis and nginx). Written and checked by server/test/deploy-files.test.ts; never built on the machine
# the product is developed on (no Docker daemon there).
#
#   docker build -t player-wallet .                  # MARKET=lao: --build-arg MARKET=lao
#   docker run --env-file /etc/wallet/wallet.env -p 127.0.0.1:3000:3000 -v wallet-data:/data player-wallet
#
# Node 20 (package.json engines: 20.19+, 22.12+ or 24); all three stages on the same major and Debian release, so
# better-sqlite3's native module compiled in the deps stage loads in the runtime stage.
ARG NODE_IMAGE=node:20-bookworm

# 1. build: the same two scripts CI runs (.ci/run): npm ci, then npm run build (the SPA into dist/, the compiled
#    server into build/server/ with its manifest). Dev dependencies (webpack, esbuild, TypeScript) live here only.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ARG MARKET=th
ARG VARIANT=web
RUN MARKET=${MARKET} VARIANT=${VARIANT} npm run build

# 2. deps: the production install alone, as scripts/prod-install-check.sh proves it (npm ci --omit=dev). On the
#    full image because better-sqlite3 may need a compiler when no prebuilt binary matches.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. runtime: slim Debian, no compiler, no dev dependency; the TypeScript sources only as the build's record.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DEMO=off \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    BACKUP_DIR=/backups \
    WORKERS=1
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
# The launcher and the build record it checks the sources against.
COPY scripts/start-prod.cjs scripts/build-manifest.cjs ./scripts/
COPY --from=build /app/build ./build
COPY --from=build /app/dist ./dist
# start:prod refuses to start when the sources differ from what build/server/manifest.json recorded, so the image
# carries the very sources the build stage compiled (taken from it, not from the context again). public/ is also
# served as it is: game artwork and the how-to videos.
COPY --from=build /app/server ./server
COPY --from=build /app/shared ./shared
COPY --from=build /app/src ./src
COPY --from=build /app/locales ./locales
COPY --from=build /app/public ./public
COPY --from=build /app/webpack.config.ts ./webpack.config.ts
# node's own image has the unprivileged user `node` (uid 1000); the app's files stay root's, read-only to it.
RUN mkdir -p /data /backups && chown node:node /data /backups && chmod 0700 /data /backups
USER node
VOLUME ["/data", "/backups"]
EXPOSE 3000
# /readyz: the database, Redis and migrations (docs/operations.md "/readyz"). Node's own fetch: the slim image has
# no curl. start-period covers the primary's migrations on a first start.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# What `npm run start:prod` runs, without npm as PID 1 in between: SIGTERM (docker stop) and SIGHUP (the rolling
# restart with WORKERS > 1: docker kill -s HUP <container>) reach the server itself.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "scripts/start-prod.cjs"]
