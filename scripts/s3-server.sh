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

# shellcheck source=scripts/lib/go-install-once.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/go-install-once.sh"
go_install_once versitygw "github.com/versity/versitygw/cmd/versitygw@$PINNED_VERSION" "versitygw $PINNED_VERSION"
