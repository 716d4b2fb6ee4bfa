#!/usr/bin/env bash
# Installs what the container checks need on a Debian machine without Docker: podman (with
# runc and catatonit), buildah, debootstrap, docker-compose (v1, talks to podman's API), curl.
# Root only; does nothing for what is already there. Exit status 3: cannot install (not root,
# no apt).
#
# catatonit is installed by name: it is the init podman runs for `init: true`
# (/usr/libexec/podman/catatonit), but podman's package only recommends
# "catatonit | tini | dumb-init", and on a machine that has tini (any machine that once had
# Docker's package) apt takes that as met and never installs it. podman then refuses to create
# the stack's containers: "container-init binary not found on the host".
set -euo pipefail
LOG_TAG=podman-setup
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"

CATATONIT=/usr/libexec/podman/catatonit
missing=()
for tool in podman buildah debootstrap docker-compose runc iptables curl; do
  have "$tool" || missing+=("$tool")
done
[ -x "$CATATONIT" ] || missing+=(catatonit)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! have apt-get; then
  log "missing ${missing[*]} and cannot install them (needs root and apt-get)"
  exit 3
fi
log "installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# podman with its recommends (netavark, aardvark-dns, ...), catatonit by name (above), and runc:
# crun refuses the hybrid cgroup layout of machines like CI's.
apt-get install -y -qq podman catatonit buildah debootstrap runc iptables curl >/dev/null
# docker-compose without its recommends, which would add the Docker engine (docker.io).
apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
[ -x "$CATATONIT" ] || { log "catatonit is installed but $CATATONIT is missing"; exit 1; }
