# syntax=docker/dockerfile:1
#
# Temporal worker image: runs the workflows and the activities, including the media engines
# (ffmpeg, pocketsphinx, apertium, espeak-ng) from Debian packages.
# Build from the repository root: docker build -f docker/worker.Dockerfile .
#
# The deps and build stages are written exactly like docker/api.Dockerfile's so BuildKit builds
# them once and both images share them.

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

# The media engines' Debian packages: exactly scripts/debian-packages.txt, the list `make dev`
# installs through scripts/install-system-deps.sh, so local runs and the image match.
COPY scripts/debian-packages.txt /tmp/debian-packages.txt
RUN set -eux; \
    apt-get update; \
    grep -vE '^\s*(#|$)' /tmp/debian-packages.txt \
      | DEBIAN_FRONTEND=noninteractive xargs -r apt-get install -y --no-install-recommends; \
    rm -rf /var/lib/apt/lists/* /tmp/debian-packages.txt

# STORAGE_DIR lives on a named volume shared with the API; a fresh volume copies this
# directory's owner, so the non-root `node` user (uid 1000 in both images) can write to it.
RUN mkdir -p /data/storage && chown node:node /data/storage

COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist

USER node
# The worker uses the bundle built above (no webpack at start). Its health endpoint listens on
# all interfaces so a probe from outside the container (Kubernetes) reaches it
# (docs/operations.md#worker-health).
ENV STORAGE_DIR=/data/storage \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js \
    WORKER_HEALTH_PORT=8081 \
    WORKER_HEALTH_HOST=0.0.0.0
EXPOSE 8081

HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.WORKER_HEALTH_PORT || 8081) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Same program as `npm run worker`, compiled, started without npm in between so SIGTERM reaches
# the worker directly and it drains in-flight tasks before exiting.
CMD ["node", "--enable-source-maps", "dist/src/worker/main.js"]
