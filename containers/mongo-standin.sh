#!/usr/bin/env bash
# Builds, locally, the stand-in for the stack's `mongo` service (containers/mongo-standin/): the
# MongoDB wire-protocol emulator of the npm package @push.rocks/smartmongo 2.2.0, corrected as the
# project's tests need it, on the same pinned Node base as the other images. For machines that
# cannot pull the mongo image (no registry reachable); `MONGO_STANDIN=1 make up` runs it, through
# docker-compose.mongo-standin.yml. It is not MongoDB: data in memory (no durability), no replica
# set (containers/README.md).
#
# Usage: containers/mongo-standin.sh       (builds it; layers already built are reused)
# Env: MONGO_STANDIN_IMAGE (its name; default: the one docker-compose.mongo-standin.yml names),
#      COMPOSE_ENGINE (as for make up), VERBOSE=1 (the whole build output).
set -euo pipefail
LOG_TAG=mongo-standin
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

# The real image must never be shadowed by this one.
case $MONGO_STANDIN_IMAGE in
  mongo:* | */mongo:* | "$MONGO_IMAGE") die "MONGO_STANDIN_IMAGE=$MONGO_STANDIN_IMAGE would shadow MongoDB's own image: choose another name" ;;
esac
detect_engine
ensure_base_image
build_image mongo-standin "$MONGO_STANDIN_IMAGE" containers/mongo-standin
