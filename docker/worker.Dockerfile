# syntax=docker/dockerfile:1
#
# Temporal worker image: runs the workflows and the activities, including the media engines
# (ffmpeg, pocketsphinx, apertium, espeak-ng) from Debian packages.
# Build from the repository root: docker build -f docker/worker.Dockerfile .
#
# The first stages are written exactly like docker/api.Dockerfile's so BuildKit builds them once
# and both images share those layers.

# Node 20 on Debian bookworm: the engines' Debian packages come from bookworm, and the Temporal
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
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
COPY db ./db
COPY src ./src

# Bundle the workflow code once, at build time, with the same Temporal bundler the worker uses
# when WORKFLOW_BUNDLE_PATH is unset: the worker starts without running webpack, and a workflow
# that cannot be bundled fails the build instead of the container.
# The script bundles the workflow interceptors (tracing) with them, as every bundle must.
RUN node --import tsx scripts/bundle-workflows.ts dist/workflow-bundle.js

USER node
ENV STORAGE_DIR=/data/storage \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js

# Same program as `npm run worker`, started without npm in between so SIGTERM reaches the
# worker directly and it drains in-flight tasks before exiting.
CMD ["node", "--import", "tsx", "src/worker/main.ts"]
