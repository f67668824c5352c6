#!/usr/bin/env bash
# Runs one spec (or all) headless against a daemon: test/run.sh [SPEC…]. LISTD_BIN defaults to the debug build.
# Starts a private `listd --listen … --stay --demo` for each spec, as the Swift wrapper does; LISTD_SPEC_TIMEOUT
# (seconds, default 120) bounds each spec.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export LISTD_NVIM_ROOT="$root"
export LISTD_BIN="${LISTD_BIN:-$root/../../.build/debug/listd}"
specs=("$@")
((${#specs[@]})) || specs=("$root"/test/spec/*_spec.lua)
status=0
for spec in "${specs[@]}"; do
  dir="$(mktemp -d /tmp/listd-nvim-XXXXXX)"
  "$LISTD_BIN" --listen "$dir/s" --stay --demo </dev/null 2>"$dir/log" &
  daemon=$!
  for _ in $(seq 100); do [[ -S "$dir/s" ]] && break; sleep 0.05; done
  echo "== $spec"
  LISTD_SOCKET="$dir/s" timeout "${LISTD_SPEC_TIMEOUT:-120}" nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$root" \
    -c "lua local ok, err = pcall(dofile, '$spec') if not ok then io.stderr:write(tostring(err)) vim.cmd('cquit 2') end" </dev/null || status=1
  kill "$daemon" 2>/dev/null || true
  wait "$daemon" 2>/dev/null || true
  rm -rf "$dir"
done
exit $status
