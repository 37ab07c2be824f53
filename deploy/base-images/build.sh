#!/usr/bin/env bash
# Builds local stand-ins for the public base images that deploy/Dockerfile and docker-compose.yml name
# (node:20-bookworm-slim, postgres:16-bookworm, eclipse-mosquitto:2, nginx:1.27-bookworm), for machines that
# reach Debian's package archive but no container registry. With a registry, none of this is needed:
# `docker compose up --build` pulls the real images.
#
# Each stand-in starts from a minimal Debian bookworm root file system (debootstrap + docker import) and installs
# the service from Debian's packages; the Node image carries this machine's own Node.js 20 (Debian bookworm ships
# Node 18, below the project's engines field). The stand-ins keep the paths, environment variables and entry
# points that the compose file relies on; their versions are Debian's (PostgreSQL 15, Mosquitto 2.0, nginx 1.22),
# which is what a tag such as postgres:16-bookworm stands in for here, not a claim to be that version.
#
# Usage: deploy/base-images/build.sh [--force]      (needs root, debootstrap and a running Docker engine)
# Env:   PENTAGATE_DEBIAN_MIRROR  (default http://deb.debian.org/debian)
#        PENTAGATE_ROOTFS_DIR     (default /var/tmp/pentagate-rootfs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
force=0
[ "${1:-}" = "--force" ] && force=1
mirror=${PENTAGATE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
rootfs=${PENTAGATE_ROOTFS_DIR:-/var/tmp/pentagate-rootfs}/bookworm

have() { [ $force = 0 ] && docker image inspect "$1" >/dev/null 2>&1; }
say() { printf '[base-images] %s\n' "$*" >&2; }

if ! have pentagate-base/debian:bookworm; then
  if [ ! -x "$rootfs/bin/sh" ]; then
    say "debootstrap bookworm (minbase) into $rootfs (about a minute)"
    mkdir -p "$(dirname "$rootfs")"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >/dev/null
  fi
  say "importing $rootfs as pentagate-base/debian:bookworm"
  tar -C "$rootfs" -c . | docker import - pentagate-base/debian:bookworm >/dev/null
fi

build() { # tag, folder
  if have "$1"; then say "$1 present"; return; fi
  say "building $1"
  docker build -q -t "$1" "$2" >/dev/null
}

# The Node stand-in: this machine's Node.js (binary, headers for native add-ons, npm) laid out as the official
# image lays it out (/usr/local), plus this machine's CA bundle so npm inside a build reaches the registry the
# same way the host does.
node_ctx=$(mktemp -d)
trap 'rm -rf "$node_ctx"' EXIT
if ! have node:20-bookworm-slim; then
  node_bin=$(command -v node)
  node_prefix=$(cd "$(dirname "$(readlink -f "$node_bin")")/.." && pwd)
  case "$("$node_bin" --version)" in v20.*) ;; *) say "this machine's node is not 20.x"; exit 2 ;; esac
  mkdir -p "$node_ctx/usr/local/bin" "$node_ctx/usr/local/include" "$node_ctx/usr/local/lib/node_modules" "$node_ctx/etc/ssl/certs"
  cp "$node_bin" "$node_ctx/usr/local/bin/node"
  cp -r "$node_prefix/include/node" "$node_ctx/usr/local/include/node"
  cp -r "$node_prefix/lib/node_modules/npm" "$node_ctx/usr/local/lib/node_modules/npm"
  cp /etc/ssl/certs/ca-certificates.crt "$node_ctx/etc/ssl/certs/ca-certificates.crt"
  cp "$here/node/Dockerfile" "$node_ctx/Dockerfile"
fi
build node:20-bookworm-slim "$node_ctx"
build postgres:16-bookworm "$here/postgres"
build eclipse-mosquitto:2 "$here/mosquitto"
build nginx:1.27-bookworm "$here/nginx"
say "stand-ins ready"
