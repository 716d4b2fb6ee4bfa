#!/usr/bin/env bash
# make test-mongo: cd-service's MongoDB suites (contract, HTTP, concurrency, process), against
#   1. MONGODB_URI when it is set (a real mongod: every test runs but the two that stop and freeze
#      an emulator of their own);
#   2. else the MongoDB wire-protocol emulator of ../shared/mongo-wire/ when that folder exists,
#      started on a free port and stopped afterwards whatever happens (tests that fail only
#      because of a documented difference of the emulator are skipped, see
#      cd-service/test/mongo-target.ts);
#   3. else it runs no test, and fails saying what to set: asked for by name, it must not pass
#      without testing anything.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
emulator_dir="$root/../shared/mongo-wire"

run_suites() {
  (cd cd-service && npm run --silent test:mongo)
}

if [ -n "${MONGODB_URI:-}" ]; then
  echo "MongoDB suites against MONGODB_URI (${MONGODB_URI%%\?*})"
  MONGO_TARGET=mongod run_suites
  exit $?
fi

if [ ! -x "$emulator_dir/setup.sh" ]; then
  echo "make test-mongo ran no test: set MONGODB_URI to a MongoDB (for example" \
    "MONGODB_URI=mongodb://127.0.0.1:27017/cds_test make test-mongo), or put the wire emulator at $emulator_dir" >&2
  exit 1
fi

install_dir=$("$emulator_dir/setup.sh")
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log=$(mktemp)
node "$install_dir/server.mjs" "$port" >"$log" 2>&1 &
emulator=$!
# Stopped whatever happens: a failure, a signal, or the end.
trap 'kill "$emulator" 2>/dev/null; wait "$emulator" 2>/dev/null; rm -f "$log"' EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 300); do
  grep -q listening "$log" && break
  kill -0 "$emulator" 2>/dev/null || { echo "the emulator did not start:"; cat "$log"; exit 1; }
  sleep 0.1
done
grep -q listening "$log" || { echo "the emulator did not listen within 30 s:"; cat "$log"; exit 1; }
echo "MongoDB suites against the wire emulator on 127.0.0.1:$port (see ../shared/mongo-wire/README.md)"
# The emulator does not implement the driver's streaming heartbeat (an awaitable hello answered
# with moreToCome): the driver would clear its pool at random and fail whatever is in flight.
# It is polled instead; a real mongod gets the driver's default.
status=0
MONGODB_URI="mongodb://127.0.0.1:$port/cds_test?serverMonitoringMode=poll" MONGO_TARGET=emulator \
  MONGO_EMULATOR_DIR="$install_dir" MONGO_EMULATOR_PORT="$port" run_suites || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- the emulator's last lines:"
  tail -n 20 "$log"
fi
exit "$status"
