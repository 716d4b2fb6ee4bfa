#!/usr/bin/env bash
# Runs one command in each package, JOBS (default 2) packages at a time: `make install` and the
# first `make start` (one package compiles SQLite's driver on one core while the others install)
# and `make test` (a suite spends much of its time waiting on a browser or a child process, which
# another suite fills). Each package's output is printed whole when it ends, so the log reads one
# package at a time; meanwhile a line says when each package starts, and every PROGRESS_SECONDS
# (default 20) one line names those still running, so that a long compile is never silent.
# Exits 1 naming the packages that failed, or if any did not run; with no package, does nothing.
# Usage: scripts/in-packages.sh WHAT 'COMMAND' PACKAGE...   (WHAT names the step in the log)
set -euo pipefail
what=$1 command=$2
shift 2
[ "$#" -gt 0 ] || exit 0
logs=$(mktemp -d)
mkdir "$logs/running"
declare -A running=() # pid -> package
failed=() passed=0
# Each package runs in a process group of its own (job control), so that stopping it stops
# everything it started (npm's compiler, a test's browser), not only the shell that runs it.
set -m
stop() {
  local pid
  exec 2>/dev/null # bash's notices of the jobs stopped here
  for pid in "${!running[@]}" ${ticker:-}; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  rm -rf "$logs"
}
trap stop EXIT

log_of() { echo "$logs/${1//\//_}.log"; }

# Waits for any running package to end and prints its output.
finish_one() {
  local pid status package
  status=0
  wait -n -p pid "${!running[@]}" || status=$?
  package=${running[$pid]}
  unset "running[$pid]"
  rm -f "$logs/running/$pid"
  echo "== $package: $what"
  cat "$(log_of "$package")"
  if [ "$status" = 0 ]; then passed=$((passed + 1)); else failed+=("$package"); fi
}

interval=${PROGRESS_SECONDS:-20}
(
  elapsed=0
  while sleep "$interval"; do
    elapsed=$((elapsed + interval))
    still=$(cat "$logs"/running/* 2>/dev/null | sort | paste -sd ' ') || true
    [ -z "$still" ] || echo "   ${elapsed} s, still running: $still"
  done
) &
ticker=$!
disown "$ticker" # no job notice when it is stopped

for package in "$@"; do
  [ "${#running[@]}" -lt "${JOBS:-2}" ] || finish_one
  echo "-- $package: $what, started"
  (cd "$package" && exec sh -c "$command") >"$(log_of "$package")" 2>&1 &
  running[$!]=$package
  echo "$package" >"$logs/running/$!"
done
while [ "${#running[@]}" -gt 0 ]; do finish_one; done

if [ "${#failed[@]}" -gt 0 ]; then echo "FAILED: ${failed[*]}"; exit 1; fi
[ "$passed" = "$#" ] || { echo "FAILED: $passed of $# packages ran"; exit 1; }
echo "$what: all $# packages passed."
