# syntax=docker/dockerfile:1
#
# HTTP API image; docker-compose.yml also runs the one-shot `migrate` service from it.
# Build from the repository root: docker build -f docker/api.Dockerfile .
#
# No media engine here: the API never runs one. What can be dubbed (GET /v1/dubbing/locales,
# create-time locale checks) is the union of the capabilities the live workers publish in
# PostgreSQL (see docs/scaling.md#capabilities).
#
# The deps and build stages are written exactly like docker/worker.Dockerfile's so BuildKit
# builds them once and both images share them.

# Node 24, the current LTS line, on Debian bookworm: the engines' Debian packages come from
# bookworm, and the Temporal SDK's native core bridge ships glibc builds only (no Alpine/musl).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---- production node_modules -------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only: the images run compiled JavaScript, no tsx, no TypeScript. The only
# runtime packages with install scripts (@swc/core, esbuild, protobufjs) are all `true` in
# package.json#allowScripts, so the result is the same whether this npm honours allowScripts or
# runs every script.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --no-audit --no-fund

# ---- compiled code -----------------------------------------------------------------------
# Every dependency (TypeScript), `npm run build` to dist/, and the workflow bundle, which a
# workflow that cannot be bundled fails here instead of in a container. Only dist/ leaves it.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY db ./db
COPY src ./src
COPY web ./web
# The bundle holds the workflows and their interceptors (tracing), as the worker makes it at
# start when WORKFLOW_BUNDLE_PATH is unset (src/worker/workflow-bundle.ts).
RUN npm run build && node dist/scripts/bundle-workflows.js dist/workflow-bundle.js

# ---- runtime -----------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app

# STORAGE_DIR lives on a named volume shared with the worker; a fresh volume copies this
# directory's owner, so the non-root `node` user (uid 1000 in both images) can write to it.
RUN mkdir -p /data/storage && chown node:node /data/storage

COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
# dist/ holds the compiled API, console and migrations (dist/db/migrations), and the editor
# page's files (dist/web, GET /editor).
COPY --from=build /app/dist ./dist

USER node
ENV HOST=0.0.0.0 \
    PORT=3000 \
    STORAGE_DIR=/data/storage
EXPOSE 3000

HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Same program as `npm run api`, compiled, started without npm in between so SIGTERM reaches the
# server directly and its graceful shutdown (SHUTDOWN_TIMEOUT_MS) runs. Other commands of this
# image: `node dist/src/cli/migrate.js`, `node dist/src/cli/storage-init.js`,
# `node dist/src/cli/console.js <command>` (the operator console), `node dist/db/seeds/dev.seed.js`.
CMD ["node", "--enable-source-maps", "dist/src/api/server.js"]
