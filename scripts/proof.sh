#!/usr/bin/env bash
# `npm run proof`: the long checks of production conditions that `npm test` runs small (docs/rules/operations.md#3-proof),
# at full size, on the embedded database and on a throwaway PostgreSQL 15 (scripts/with-postgres.sh):
#   - the OpenAPI fuzzer (tests/api/fuzz.test.ts) with FUZZ_RUNS generated requests per operation and caller
#     (default 500: about 130,000 requests per database);
#   - the authorization matrices (tests/api/authorization-matrix.test.ts, tests/api/pages-matrix.test.ts);
#   - the races across three instances (tests/api/scale-out.test.ts, PostgreSQL) with RACE_CONTENDERS contenders each,
#     RACE_ROUNDS times (default 30 and 5: 25 races, 750 contenders);
#   - the database going away under load for 20 s (bench/outage.ts, PostgreSQL; builds first).
# Prints each step's time and the closing summary to paste into bench/RESULTS.md. Exit 1 when a step fails.
set -uo pipefail
cd "$(dirname "$0")/.."
export FUZZ_RUNS="${FUZZ_RUNS:-500}"
export RACE_CONTENDERS="${RACE_CONTENDERS:-30}" RACE_ROUNDS="${RACE_ROUNDS:-5}"
export NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning"
FILES=(tests/api/fuzz.test.ts tests/api/authorization-matrix.test.ts tests/api/pages-matrix.test.ts)
failed=0
summary=()
step() {
  local name=$1
  shift
  local start=$SECONDS log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then
    summary+=("✔ $name: $(grep -E '^Tests:' "$log" | tail -1) in $((SECONDS - start)) s")
  else
    failed=1
    summary+=("✘ $name: $(grep -E '^Tests:' "$log" | tail -1) in $((SECONDS - start)) s (log: $log)")
    tail -60 "$log"
  fi
}
[ -d node_modules ] || npm ci
step "embedded database, FUZZ_RUNS=$FUZZ_RUNS" npx jest --runInBand "${FILES[@]}"
step "PostgreSQL 15, FUZZ_RUNS=$FUZZ_RUNS" bash scripts/with-postgres.sh npx jest --runInBand "${FILES[@]}"
step "three instances on PostgreSQL 15, $RACE_CONTENDERS contenders a race, $RACE_ROUNDS rounds" bash scripts/with-postgres.sh npx jest --runInBand tests/api/scale-out.test.ts
outage() { npm run --silent build && bash scripts/with-postgres.sh npx tsx bench/outage.ts | tee /dev/stderr | grep -A6 '^outage proof:' >"$OUTAGE_SUMMARY"; }
OUTAGE_SUMMARY=$(mktemp)
step "PostgreSQL 15 away for 20 s under load" outage
echo
echo "proof: $(date -u '+%Y-%m-%d %H:%M UTC') · $(nproc) CPUs · node $(npx node --version 2>/dev/null) · commit $(git rev-parse --short HEAD 2>/dev/null)"
printf '%s\n' "${summary[@]}"
cat "$OUTAGE_SUMMARY"
exit $failed
