# Two commands matter: `make dev` (run everything locally) and `make test` (the whole suite
# against a real PostgreSQL and a real Temporal dev server). Both install what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help dev test deps dev-deps node-check system-deps temporal-cli s3-server migrate typecheck lint unit clean

help:
	@echo "make dev    - install what is missing, start PostgreSQL, Temporal (UI :8233), API (:3000) and worker"
	@echo "              (STORAGE_DRIVER=s3 make dev also starts an S3-compatible server, versitygw)"
	@echo "make test   - typecheck, lint and the full test suite on real PostgreSQL + Temporal + an S3 server"
	@echo "make unit   - the unit tier alone: no database, Temporal or S3 server (needs the Debian engines for engine tests)"
	@echo "make migrate | typecheck | lint (ESLint and Prettier) | clean"

node-check:
	@node -e 'const [maj]=process.versions.node.split(".").map(Number); if (maj < 20) { console.error("Node 20 or newer is required, found " + process.version); process.exit(1) }'

# npm writes node_modules/.package-lock.json, so this re-runs only when the lockfile changes.
# `npm install --no-save` rather than `npm ci`: it installs the locked versions too, but does not
# insist that every platform's optional binaries (macOS, Windows...) be reachable in the registry.
node_modules/.package-lock.json: package.json package-lock.json
	@echo "[deps] installing npm packages..."
	@npm install --no-save --no-audit --no-fund --loglevel=error
	@touch $@

system-deps:
	@bash scripts/install-system-deps.sh

temporal-cli:
	@bash scripts/temporal-cli.sh >/dev/null

# versitygw, the S3-compatible server the s3 storage driver's suites run against (and that
# `STORAGE_DRIVER=s3 make dev` starts); built once per machine like the Temporal CLI.
s3-server:
	@bash scripts/s3-server.sh >/dev/null

deps: node-check node_modules/.package-lock.json system-deps temporal-cli s3-server

# `make dev` builds only what its storage driver needs: versitygw (a Go build) only for
# STORAGE_DRIVER=s3 (from the environment or `make dev STORAGE_DRIVER=s3`); `make test` needs it always.
dev-deps: node-check node_modules/.package-lock.json system-deps temporal-cli $(if $(filter s3,$(STORAGE_DRIVER)),s3-server)

dev: dev-deps
	@node --import tsx scripts/dev.ts

test: deps typecheck lint
	@# --forceExit: a leaked handle must fail loudly in a test, never hang CI for its 90 minutes.
	@npx jest --ci --forceExit

# The unit tier (jest project "unit"): starts no database, Temporal or S3 server.
unit: node_modules/.package-lock.json system-deps
	@npx jest --ci --forceExit --selectProjects unit

typecheck: node_modules/.package-lock.json
	@echo "[test] typecheck"
	@npx tsc --noEmit -p .

lint: node_modules/.package-lock.json
	@echo "[test] lint"
	@npx eslint --max-warnings 0 .
	@# Formatting is Prettier's (.prettierrc.json); `npm run format` rewrites what this refuses.
	@npm run --silent format:check

migrate: node_modules/.package-lock.json
	@npm run --silent migrate

clean:
	rm -rf .dev .test-tmp dist
