#!/usr/bin/env bash
# Prints the path of a versitygw binary (the S3-compatible server `STORAGE_DRIVER=s3` is tested
# against and `STORAGE_DRIVER=s3 make dev` runs), building one if needed. Progress goes to
# stderr; only the path goes to stdout.
#
# Order: $VERSITYGW; `versitygw` on PATH; a pinned build from the Go module proxy installed in
# $(go env GOPATH)/bin, where every clone on the machine reuses it (like scripts/temporal-cli.sh).
set -euo pipefail

PINNED_VERSION="v1.8.0" # tagged, no replace directives: `go install pkg@version` works from the proxy
say() { printf '[s3-server] %s\n' "$*" >&2; }

if [ -n "${VERSITYGW:-}" ]; then
  if [ -x "$VERSITYGW" ]; then echo "$VERSITYGW"; exit 0; fi
  say "VERSITYGW=$VERSITYGW is not an executable file"; exit 1
fi

if command -v versitygw >/dev/null 2>&1; then command -v versitygw; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  say "no Go toolchain: install Go 1.24+ (or set VERSITYGW to a versitygw binary) to run the S3 tests and STORAGE_DRIVER=s3 make dev"
  exit 1
fi

gobin="$(go env GOBIN)"; [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
if [ -x "$gobin/versitygw" ]; then echo "$gobin/versitygw"; exit 0; fi
say "building versitygw $PINNED_VERSION from the Go module proxy (first time only, ~3-6 min)..."
start=$(date +%s)
log="$(mktemp)"
CGO_ENABLED=0 GOFLAGS=-buildvcs=false go install "github.com/versity/versitygw/cmd/versitygw@$PINNED_VERSION" >"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  sleep 15
  kill -0 "$pid" 2>/dev/null && say "  still building... $(( $(date +%s) - start ))s"
done
if ! wait "$pid"; then say "go install failed:"; cat "$log" >&2; rm -f "$log"; exit 1; fi
rm -f "$log"
say "built $gobin/versitygw in $(( $(date +%s) - start ))s"
echo "$gobin/versitygw"
