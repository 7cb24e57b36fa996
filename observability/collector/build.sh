#!/usr/bin/env bash
# Builds the test collector (builder-config.yaml beside this script) with the OpenTelemetry Collector Builder,
# pinned, from Go modules only, into $(go env GOPATH)/bin/pra-otelcol (PRA_OTELCOL overrides the path). The build
# runs in ~/.cache/pra-otelcol, outside the repository. A binary built from this very manifest by this builder
# version is kept: its sha256 is stored beside it (pra-otelcol.manifest-sha256), so CI, which runs repeatedly on
# the same machine, builds once (a few minutes on 2 cores) and then skips.
#   observability/collector/build.sh            # build if missing or out of date; prints the binary's path
#   observability/collector/build.sh --force    # build even if up to date
set -euo pipefail

BUILDER_MODULE=go.opentelemetry.io/collector/cmd/builder
BUILDER_VERSION=v0.165.0

here=$(cd "$(dirname "$0")" && pwd)
manifest="$here/builder-config.yaml"
log() { printf '[collector] %s\n' "$*"; }

export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null 2>&1 || { log "Go is missing: install it (https://go.dev/dl) to build the collector"; exit 1; }
gopath=$(go env GOPATH)
export PATH="$PATH:$gopath/bin"
bin=${PRA_OTELCOL:-$gopath/bin/pra-otelcol}
stamp="$bin.manifest-sha256"
# The manifest, the stand-in modules it points at, and the builder version make a build.
hash=$({ cat "$manifest" "$here"/stubs/*/*; echo "builder $BUILDER_VERSION"; } | sha256sum | cut -d' ' -f1)

if [ "${1:-}" != "--force" ] && [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$hash" ]; then
  log "up to date: $bin ($("$bin" --version 2>/dev/null || echo '?'))"
  exit 0
fi

builder="$gopath/bin/builder"
if ! { [ -x "$builder" ] && "$builder" version 2>&1 | grep -q "$BUILDER_VERSION\$"; }; then
  log "installing the builder: go install $BUILDER_MODULE@$BUILDER_VERSION"
  go install "$BUILDER_MODULE@$BUILDER_VERSION"
fi

work="${XDG_CACHE_HOME:-$HOME/.cache}/pra-otelcol"
mkdir -p "$work"
rm -rf "$work/stubs" "$work/pra-otelcol-build"
cp -R "$here/stubs" "$work/stubs"
log "building $bin from $manifest in $work (a few minutes the first time)"
# An out-of-date binary goes first: a build that fails leaves none (the tests then print their SKIP line), never a
# binary of another manifest that the tests would take for this one.
rm -f "$bin" "$stamp"
start=$(date +%s)
(cd "$work" && "$builder" --config "$manifest")
mkdir -p "$(dirname "$bin")"
install -m 0755 "$work/pra-otelcol-build/pra-otelcol" "$bin.tmp"
mv -f "$bin.tmp" "$bin"
echo "$hash" >"$stamp"
log "built $bin in $(($(date +%s) - start)) s: $("$bin" --version)"
