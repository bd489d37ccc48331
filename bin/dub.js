#!/usr/bin/env node
// The `dub` command (package.json "bin"): runs the TypeScript CLI through tsx, so it works
// straight from a clone, with no build step. See docs/cli.md.
require('tsx/cjs');
require('../src/dub/main.ts').main();
