# Sourced by scripts/temporal-cli.sh and scripts/s3-server.sh (which define `say`):
#   go_install_once <binary> <package@version> <label>
# Prints the binary's path in $(go env GOPATH)/bin (or GOBIN), building it there from the Go
# module proxy the first time only, so every clone on the machine reuses it. Progress goes to
# stderr; only the path goes to stdout. Needs `go` on PATH.
go_install_once() {
  local binary="$1" package="$2" label="$3"
  local gobin start log pid
  gobin="$(go env GOBIN)"; [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
  if [ -x "$gobin/$binary" ]; then echo "$gobin/$binary"; return 0; fi
  say "building $label from the Go module proxy (first time only, ~3-6 min)..."
  start=$(date +%s)
  log="$(mktemp)"
  CGO_ENABLED=0 GOFLAGS=-buildvcs=false go install "$package" >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 15
    kill -0 "$pid" 2>/dev/null && say "  still building... $(( $(date +%s) - start ))s"
  done
  if ! wait "$pid"; then say "go install failed:"; cat "$log" >&2; rm -f "$log"; return 1; fi
  rm -f "$log"
  say "built $gobin/$binary in $(( $(date +%s) - start ))s"
  echo "$gobin/$binary"
}
