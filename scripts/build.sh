#!/bin/sh
# `npm run build [-- <out dir>]`: compiles src/, db/ (the migrations) and the workflow-bundle
# script to JavaScript in dist/ (or the given directory), and copies the editor page's files
# beside them, so `node dist/src/api/server.js` and `node dist/src/worker/main.js` need only
# node_modules (production dependencies) and package.json. See docs/docker.md#compiled-code.
set -eu
out="${1:-dist}"
rm -rf "$out"
npx tsc -p tsconfig.build.json --outDir "$out"
# src/api/editor/editor-assets.ts finds them three levels up from its compiled file.
cp -R web "$out/web"
