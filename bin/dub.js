#!/usr/bin/env node
// The `dub` command (package.json "bin"); see docs/cli.md.
require('./run-entry').loadEntry('dub/main').main();
