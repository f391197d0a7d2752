#!/usr/bin/env bash
# `npm test`: every test of the product, in one line, on a fresh machine too.
#   prerequisites  npm dependencies (npm ci when node_modules is missing), Debian's chromium and postgresql
#   typecheck      tsc
#   jest           unit + API tests on embedded PGlite
#   jest-pg        the API tests again on a throwaway PostgreSQL 15 (scripts/with-postgres.sh)
#   build          the production bundles (dist/)
#   size           the bundle budgets (`npm run size`, when that script exists)
#   e2e            Playwright journeys in Debian's Chromium against the built server
# Every step runs even when an earlier one failed (one run shows everything that is broken), except
# that size and e2e need a successful build. Exit status: 0 only when every step passed.
#   bash scripts/test.sh               everything
#   bash scripts/test.sh jest e2e      only these steps (prerequisites always run)
set -uo pipefail
cd "$(dirname "$0")/.."

ALL_STEPS=(typecheck jest jest-pg build size e2e)
if [ $# -gt 0 ]; then STEPS=("$@"); else STEPS=("${ALL_STEPS[@]}"); fi
for s in "${STEPS[@]}"; do
  [[ " ${ALL_STEPS[*]} " == *" $s "* ]] || { echo "unknown step '$s' (steps: ${ALL_STEPS[*]})" >&2; exit 2; }
done
wants() { [[ " ${STEPS[*]} " == *" $1 "* ]]; }

# Jest in ESM mode (react-router 8 is ESM-only); the experimental warning is noise in every worker.
export NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning${NODE_OPTIONS:+ $NODE_OPTIONS}"
JEST=(npx --no-install jest --maxWorkers=2)
[ "${CI:-}" = true ] && JEST+=(--ci)

if [ -t 1 ]; then B=$'\e[1m'; G=$'\e[32m'; R=$'\e[31m'; Y=$'\e[33m'; N=$'\e[0m'; else B=; G=; R=; Y=; N=; fi
SUMMARY=()
FAILED=0
NPASS=0
NFAIL=0
T0=$SECONDS

# run <name> <description> <command...>: a heading, the command, its verdict and duration.
run() {
  local name=$1 what=$2; shift 2
  local t=$SECONDS rc
  printf '\n%s━━━ %s: %s ━━━%s\n' "$B" "$name" "$what" "$N"
  printf '$ %s\n' "$*"
  "$@"
  rc=$?
  local d=$((SECONDS - t))
  if [ $rc -eq 0 ]; then
    printf '%s✔ %s passed (%ds)%s\n' "$G" "$name" "$d" "$N"
    NPASS=$((NPASS + 1))
    SUMMARY+=("$(printf '  %-14s %s  %4ds' "$name" "${G}pass${N}" "$d")")
  else
    printf '%s✘ %s FAILED with exit code %d (%ds)%s\n' "$R" "$name" "$rc" "$d" "$N"
    SUMMARY+=("$(printf '  %-14s %s  %4ds' "$name" "${R}FAIL${N}" "$d")")
    FAILED=1
    NFAIL=$((NFAIL + 1))
  fi
  return $rc
}
skip() {
  printf '\n%s━━━ %s: skipped (%s) ━━━%s\n' "$Y" "$1" "$2" "$N"
  SUMMARY+=("$(printf '  %-14s %s' "$1" "${Y}skip${N}  ($2)")")
  FAILED=1
  NFAIL=$((NFAIL + 1))
}

prerequisites() {
  if [ ! -x node_modules/.bin/jest ] || [ ! -x node_modules/.bin/node ]; then
    echo "node_modules is missing or incomplete: npm ci"
    npm ci --no-audit --no-fund || return 1
  fi
  if wants e2e; then bash scripts/ensure-chromium.sh || return 1; fi
  if wants jest-pg; then
    # with-postgres.sh installs it when missing; doing it here keeps the apt time out of the jest-pg timing.
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${PG_BINDIR:-}" ]; then
      bash scripts/with-postgres.sh true || return 1
    fi
  fi
  echo "node $(npx --no-install node --version), npm $(npm --version)"
}

print_summary() {
  printf '\n%s━━━ summary ━━━%s\n' "$B" "$N"
  printf '%s\n' "${SUMMARY[@]}"
  printf '  %-14s       %4ds\n' total $((SECONDS - T0))
  printf 'steps: %d passed, %d failed\n' "$NPASS" "$NFAIL"
}

# The closing line: individual tests of every runner that ran (jest twice, Playwright), summed.
print_test_counts() {
  npx --no-install node -e '
    const fs = require("fs"), path = require("path"), dir = process.argv[1];
    let passed = 0, failed = 0;
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      if (r.stats) { passed += (r.stats.expected ?? 0) + (r.stats.flaky ?? 0); failed += r.stats.unexpected ?? 0; }
      else { passed += r.numPassedTests ?? 0; failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0); }
    }
    console.log(`tests: ${passed} passed, ${failed} failed`);
  ' "$RESULTS" 2>/dev/null || true
}

if ! run prerequisites "npm dependencies, chromium, postgresql" prerequisites; then
  print_summary
  exit 1
fi

wants typecheck && run typecheck "tsc, strict" npm run --silent typecheck
# Each runner also writes its counts as JSON, summed into the closing `tests:` line.
RESULTS=$(mktemp -d)
trap 'rm -rf "$RESULTS"' EXIT
wants jest && run jest "unit + API tests on PGlite" "${JEST[@]}" --json --outputFile="$RESULTS/jest.json" tests/unit tests/api
wants jest-pg && run jest-pg "API tests on PostgreSQL 15" bash scripts/with-postgres.sh "${JEST[@]}" --json --outputFile="$RESULTS/jest-pg.json" tests/api

built=1
if wants build; then run build "production bundles (dist/)" npm run --silent build || built=0
elif wants e2e && [ ! -f dist/server/index.js ]; then built=0
fi

if wants size; then
  if [ $built = 0 ]; then skip size "the build failed"
  elif npm pkg get scripts.size | grep -q '"'; then run size "bundle budgets" npm run --silent size --if-present
  else
    printf '\n━━━ size: no "size" script in package.json yet, nothing to check ━━━\n'
    SUMMARY+=("$(printf '  %-14s %s' size 'n/a   (no size script)')")
  fi
fi

if wants e2e; then
  if [ $built = 0 ]; then skip e2e "no successful build"
  else PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/e2e.json" run e2e "Playwright journeys in Chromium" npx --no-install playwright test --reporter=list,json
  fi
fi

print_summary
if [ $FAILED = 0 ]; then printf '%sAll tests passed.%s\n' "$G" "$N"; else printf '%sSome tests FAILED (see above).%s\n' "$R" "$N"; fi
print_test_counts
exit $FAILED
