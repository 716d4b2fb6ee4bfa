#!/usr/bin/env bash
# Installs what the container checks need on a Debian machine without Docker: podman (with
# runc), buildah, debootstrap, docker-compose (v1, talks to podman's API), curl. Root only;
# does nothing for what is already there. Exit status 3: cannot install (not root, no apt).
set -euo pipefail
LOG_TAG=podman-setup
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"

missing=()
for tool in podman buildah debootstrap docker-compose runc iptables curl; do
  have "$tool" || missing+=("$tool")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! have apt-get; then
  log "missing ${missing[*]} and cannot install them (needs root and apt-get)"
  exit 3
fi
log "installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# podman with its recommends (netavark, aardvark-dns, catatonit, ...) and runc: crun refuses
# the hybrid cgroup layout of machines like CI's.
apt-get install -y -qq podman buildah debootstrap runc iptables curl >/dev/null
# docker-compose without its recommends, which would add the Docker engine (docker.io).
apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
