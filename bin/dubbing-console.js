#!/usr/bin/env node
// The operator console (package.json "bin"), the same program as `npm run console --`; it reads
// the environment the API and the worker read. See docs/operations.md.
require('./run-entry').loadEntry('cli/console').main();
