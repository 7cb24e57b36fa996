#!/usr/bin/env bash
# Builds a Kubernetes API server and etcd from their Go modules (through the Go module proxy; no release download,
# no Docker) into $(go env GOPATH)/bin, and the CRDs the chart's custom resources need into ~/.cache/pra-kube/crds,
# for charts/test/kube-server.test.ts: the chart installed, upgraded and rolled back on a real API server (the tests
# talk to it with HTTP requests and helm: no kubectl). Pinned: Kubernetes KUBE_VERSION (its published k8s.io/*
# modules), the etcd that release ships with, and the CRDs' upstream modules. What is already there at its pinned
# version is kept, so a machine builds once (about 21 minutes of CPU, charts/README.md; each later CI run skips in a
# second).
#   charts/test/kube/build.sh            # build what is missing or of another version
#   charts/test/kube/build.sh --force    # build both again
#
# How: k8s.io/kubernetes is not `go install`able (its go.mod replaces every k8s.io/* staging module with a
# directory its module zip does not hold). So the module is copied out of the module cache into ~/.cache, its
# vendor/ and go.work and the go.mod `replace` block dropped, the `v0.0.0` placeholders pinned to the published
# staging modules of the same release (v0.37.x for 1.37.x), and the commands built with -mod=mod, with the flags and
# tags of Kubernetes' own release build (hack/lib/golang.sh: -trimpath, -s -w, selinux,notest,grpcnotrace). The
# version goes in with -ldflags as that build does (without it the server says v0.0.0 and a chart's kubeVersion
# refuses it). etcd's main module has replace directives too; a five-line main calling etcdmain.Main builds, and it
# is built inside the same copy, in the same `go build`: Kubernetes' go.mod requires go.etcd.io/etcd/server/v3 at
# ETCD_VERSION (its integration tests run that etcd embedded), so etcd gets the dependency versions Kubernetes tests
# it with, and the packages the two share (gRPC, the etcd client, OpenTelemetry, ...) are compiled once.
set -euo pipefail

KUBE_VERSION=v1.37.2      # a supported release (1.37: Aug 2026 - Oct 2027)
STAGING_VERSION=v0.37.2   # the k8s.io/* staging modules published with it
ETCD_VERSION=v3.7.0       # the etcd Kubernetes 1.37 builds and tests with (build/dependencies.yaml)
# The CRDs. CloudNativePG's module ships its CRD YAML (config/crd/bases). The Prometheus operator's full module is not
# served by the proxy past v0.85; its API module (Go types only) is, and controller-gen makes the CRDs from it, as
# the operator's own build does.
CNPG_MODULE=github.com/cloudnative-pg/cloudnative-pg
CNPG_VERSION=v1.28.0
MONITORING_MODULE=github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring
MONITORING_VERSION=v0.95.2
CONTROLLER_GEN_VERSION=v0.23.0

log() { printf '[kube] %s\n' "$*"; }
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null 2>&1 || { log "Go is missing: install it (https://go.dev/dl) to build kube-apiserver"; exit 1; }
gopath=$(go env GOPATH)
bindir="$gopath/bin"
work="${XDG_CACHE_HOME:-$HOME/.cache}/pra-kube"
force=0
[ "${1:-}" = "--force" ] && force=1

# (grep reads all the output: with -q it could stop at the first line, and the binary die of SIGPIPE under pipefail.)
apiserver_ok() { [ -x "$bindir/kube-apiserver" ] && "$bindir/kube-apiserver" --version 2>/dev/null | grep -x "Kubernetes $KUBE_VERSION" >/dev/null; }
etcd_ok() { [ -x "$bindir/etcd" ] && "$bindir/etcd" --version 2>/dev/null | grep -x "etcd Version: ${ETCD_VERSION#v}" >/dev/null; }

# CPU seconds (user + system) of the commands this script has run and waited for so far (cutime + cstime).
cpu() { awk -v tck="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%d", ($14 + $15) / tck }' "/proc/$$/stat"; }
mkdir -p "$bindir" "$work"
start=$(date +%s)

if [ $force = 1 ] || ! apiserver_ok || ! etcd_ok; then
  src="$work/kubernetes-$KUBE_VERSION"
  if [ ! -f "$src/.prepared" ]; then
    log "fetching k8s.io/kubernetes@$KUBE_VERSION (Go module proxy)"
    dir=$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -d "$dir" ] || { log "k8s.io/kubernetes@$KUBE_VERSION: no module directory"; exit 1; }
    rm -rf "$src"
    cp -R "$dir" "$src"
    chmod -R u+w "$src"
    rm -rf "$src/vendor" "$src/go.work" "$src/go.work.sum"
    # Drop the replace block, pin the placeholders to the published staging modules.
    awk '/^replace \($/ {skip=1; next} skip && /^\)$/ {skip=0; next} !skip' "$src/go.mod" |
      sed -E "s#^([[:space:]]*k8s\.io/[a-z0-9-]+) v0\.0\.0\$#\1 $STAGING_VERSION#" >"$src/go.mod.new"
    mv "$src/go.mod.new" "$src/go.mod"
    touch "$src/.prepared"
  fi
  # etcd's main, as its own main package runs it; its version is the one Kubernetes' go.mod requires.
  grep -q "^[[:space:]]*go.etcd.io/etcd/server/v3 $ETCD_VERSION\( \|\$\)" "$src/go.mod" ||
    { log "k8s.io/kubernetes@$KUBE_VERSION does not require go.etcd.io/etcd/server/v3 $ETCD_VERSION"; exit 1; }
  mkdir -p "$src/pra/etcd"
  cat >"$src/pra/etcd/main.go" <<'GO'
// etcd, as its own main package runs it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  minor=${KUBE_VERSION#v1.}; minor=${minor%%.*}
  ldflags="-s -w"
  for key in gitVersion=$KUBE_VERSION gitMajor=1 gitMinor=$minor gitTreeState=clean \
    buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ); do
    ldflags="$ldflags -X k8s.io/component-base/version.$key -X k8s.io/client-go/pkg/version.$key"
  done
  log "building kube-apiserver $KUBE_VERSION and etcd $ETCD_VERSION in $src (about 21 minutes of CPU the first time)"
  # A binary of another version goes first: a failed build leaves none, and the tests then print their SKIP line.
  rm -f "$bindir/kube-apiserver" "$bindir/etcd"
  (cd "$src" && GOFLAGS=-mod=mod go build -trimpath -tags selinux,notest,grpcnotrace -ldflags "$ldflags" \
    -o "$work/out/" ./cmd/kube-apiserver ./pra/etcd)
  install -m 0755 "$work/out/kube-apiserver" "$bindir/kube-apiserver"
  install -m 0755 "$work/out/etcd" "$bindir/etcd"
  apiserver_ok || { log "kube-apiserver built but does not report $KUBE_VERSION"; exit 1; }
  etcd_ok || { log "etcd built but does not report ${ETCD_VERSION#v}"; exit 1; }
  log "kube-apiserver and etcd built: $(($(date +%s) - start)) s, $(cpu) s of CPU"
fi

crds="$work/crds"
pins="cnpg $CNPG_VERSION monitoring $MONITORING_VERSION controller-gen $CONTROLLER_GEN_VERSION"
if [ $force = 1 ] || [ "$(cat "$crds/pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$crds" && mkdir -p "$crds"
  log "CloudNativePG's Cluster CRD from $CNPG_MODULE@$CNPG_VERSION"
  cnpg=$(go mod download -json "$CNPG_MODULE@$CNPG_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp "$cnpg/config/crd/bases/postgresql.cnpg.io_clusters.yaml" "$crds/"
  if ! { [ -x "$bindir/controller-gen" ] && "$bindir/controller-gen" --version 2>/dev/null | grep -q "$CONTROLLER_GEN_VERSION\$"; }; then
    log "installing controller-gen: go install sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_GEN_VERSION"
    go install "sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_GEN_VERSION"
  fi
  gen="$work/crdgen-$MONITORING_VERSION"
  rm -rf "$gen" && mkdir -p "$gen"
  printf 'module pra.local/crdgen\n\ngo 1.25\n\nrequire %s %s\n' "$MONITORING_MODULE" "$MONITORING_VERSION" >"$gen/go.mod"
  printf 'package crdgen\n\nimport _ "%s/v1"\n' "$MONITORING_MODULE" >"$gen/tools.go"
  log "the Prometheus operator's CRDs from $MONITORING_MODULE@$MONITORING_VERSION (controller-gen $CONTROLLER_GEN_VERSION)"
  (cd "$gen" && go mod tidy && "$bindir/controller-gen" crd:crdVersions=v1 \
    "paths=$MONITORING_MODULE/v1" "output:crd:dir=$gen/out")
  for kind in prometheusrules servicemonitors podmonitors; do cp "$gen/out/monitoring.coreos.com_$kind.yaml" "$crds/"; done
  echo "$pins" >"$crds/pins"
fi

log "ready in $(($(date +%s) - start)) s, $(cpu) s of CPU: $("$bindir/kube-apiserver" --version), $("$bindir/etcd" --version | head -1), CRDs in $crds"
