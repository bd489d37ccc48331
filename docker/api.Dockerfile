# syntax=docker/dockerfile:1
#
# HTTP API image; docker-compose.yml also runs the one-shot `migrate` service from it.
# Build from the repository root: docker build -f docker/api.Dockerfile .
#
# No media engine here: the API never runs one. What can be dubbed (GET /v1/dubbing/locales,
# create-time locale checks) is the union of the capabilities the live workers publish in
# PostgreSQL (see docs/scaling.md#capabilities).
#
# The deps stage is written exactly like docker/worker.Dockerfile's so BuildKit builds it once
# and both images share it.

# Node 20 on Debian bookworm, like the worker image; the Temporal
# SDK's native core bridge ships glibc builds only (no Alpine/musl).
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# ---- production node_modules -------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# tsx is a runtime dependency, so dev dependencies are left out. The only runtime packages with
# install scripts (@swc/core, esbuild, protobufjs) are all `true` in package.json#allowScripts,
# so the result is the same whether this npm honours allowScripts or runs every script.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --no-audit --no-fund

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
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
COPY db ./db
COPY src ./src
# The editor page's files (GET /editor, docs/editing.md#the-editor); the worker image has no use for them.
COPY web ./web

USER node
ENV HOST=0.0.0.0 \
    PORT=3000 \
    STORAGE_DIR=/data/storage
EXPOSE 3000

HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Same program as `npm run api`, started without npm in between so SIGTERM reaches the server
# directly and its graceful shutdown (SHUTDOWN_TIMEOUT_MS) runs.
CMD ["node", "--import", "tsx", "src/api/server.ts"]
