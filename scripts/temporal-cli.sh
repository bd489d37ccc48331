#!/usr/bin/env bash
# Prints the path of a Temporal CLI (which carries the dev server and its Web UI), building one
# if needed. Progress goes to stderr; only the path goes to stdout.
#
# Order: $TEMPORAL_CLI; `temporal` on PATH; a pinned build from the Go module proxy installed in
# $(go env GOPATH)/bin, where every clone on the machine reuses it; last, the SDK's download.
set -euo pipefail

PINNED_VERSION="v1.5.1" # this tag has no replace directive, so `go install pkg@version` works
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { printf '[temporal-cli] %s\n' "$*" >&2; }

if [ -n "${TEMPORAL_CLI:-}" ]; then
  if [ -x "$TEMPORAL_CLI" ]; then echo "$TEMPORAL_CLI"; exit 0; fi
  say "TEMPORAL_CLI=$TEMPORAL_CLI is not an executable file"; exit 1
fi

if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi

if command -v go >/dev/null 2>&1; then
  # shellcheck source=scripts/lib/go-install-once.sh
  . "$here/lib/go-install-once.sh"
  go_install_once temporal "github.com/temporalio/cli/cmd/temporal@$PINNED_VERSION" "Temporal CLI $PINNED_VERSION"
  exit $?
fi

say "no Go toolchain; trying the Temporal SDK's own download (needs internet access)"
exec node "$here/temporal-sdk-download.js"
