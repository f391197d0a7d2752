#!/usr/bin/env bash
# `npm test`: every test of the product, in one line, on a fresh machine too.
#   prerequisites  npm dependencies (npm ci when node_modules is missing), Debian's chromium and postgresql
#   typecheck      tsc
#   lint           ESLint (eslint.config.js)
#   format         Prettier, check only (`npm run format` rewrites)
#   audit          npm audit of the production dependencies: no high or critical advisory (scripts/audit.ts; passes,
#                  saying so, where the registry's advisory service cannot be reached)
#   jest           unit + API tests on embedded PGlite
#   jest-pg        the API tests again on a throwaway PostgreSQL 15 (scripts/with-postgres.sh)
#   build          the production bundles (dist/)
#   size           the bundle budgets (`npm run size`, when that script exists)
#   artefact       the production artefact the Dockerfile describes, built with its own commands in clean folders,
#                  started as the container starts it, and a page served from it (scripts/artefact.ts)
#   e2e            Playwright journeys in Debian's Chromium against the built server
# Every step runs even when an earlier one failed (one run shows everything that is broken), except
# that size and e2e need a successful build. Exit status: 0 only when every step passed and no test failed.
# The closing line, read by CI, is `tests: N passed, N failed, N skipped`: the individual tests of every runner
# (jest, jest-pg, Playwright) plus one per check step (typecheck, lint, format, build, size). A failed check, a step
# that could not run, a runner that exited non-zero without a failed test in its report, a runner whose JSON report
# is missing or unreadable, a top-level Playwright error and a flaky test (passed on retry) all count as failed.
#   bash scripts/test.sh               everything
#   bash scripts/test.sh jest e2e      only these steps (prerequisites always run)
set -uo pipefail
cd "$(dirname "$0")/.."

ALL_STEPS=(typecheck lint format audit jest jest-pg build size artefact e2e)
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
# One line per step for the closing `tests:` line: name, kind (check/runner), exit code or `skip`, JSON report.
RESULTS=$(mktemp -d)
trap 'rm -rf "$RESULTS"' EXIT
STEPS_TSV="$RESULTS/steps.tsv"
: >"$STEPS_TSV"

# run <name> <description> <command...>: a heading, the command, its verdict and duration.
run() {
  local name=$1 what=$2; shift 2
  local t=$SECONDS rc
  printf '\n%s━━━ %s: %s ━━━%s\n' "$B" "$name" "$what" "$N"
  printf '$ %s\n' "$*"
  "$@"
  rc=$?
  record "$name" "$rc" $((SECONDS - t))
  return $rc
}
# record <name> <exit code> <seconds>: the step's verdict, its line in the summary and in $STEPS_TSV.
record() {
  local name=$1 rc=$2 d=$3
  [ "$name" = prerequisites ] || printf '%s\t%s\t%s\t%s\n' "$name" "${KIND:-check}" "$rc" "${REPORT:-}" >>"$STEPS_TSV"
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
# start <name> <description> <command...>: runs the command in the background, its output kept; finish <name> waits for
# it, prints the heading and the output, and records the verdict as run does. For the three checks: each keeps one core
# busy for a few seconds, and on two cores they take half the time side by side. (Not the artefact: its start is timed,
# and built beside the checks it took their CPU and saved nothing, docs/decisions/070-ci-time-measured.md.)
declare -A BG_PID BG_WHAT BG_CMD BG_T0
start() {
  local name=$1 what=$2; shift 2
  BG_WHAT[$name]=$what
  BG_CMD[$name]="$*"
  BG_T0[$name]=$SECONDS
  "$@" >"$RESULTS/$name.log" 2>&1 &
  BG_PID[$name]=$!
}
finish() {
  local name=$1 rc
  wait "${BG_PID[$name]}"
  rc=$?
  printf '\n%s━━━ %s: %s ━━━%s\n' "$B" "$name" "${BG_WHAT[$name]}" "$N"
  printf '$ %s\n' "${BG_CMD[$name]}"
  cat "$RESULTS/$name.log"
  # Timed from its start, as run times a step.
  record "$name" "$rc" $((SECONDS - BG_T0[$name]))
}
skip() {
  printf '\n%s━━━ %s: skipped (%s) ━━━%s\n' "$Y" "$1" "$2" "$N"
  printf '%s\tcheck\tskip\t\n' "$1" >>"$STEPS_TSV"
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

# The closing line (see the top): every step of $STEPS_TSV; a runner's tests from its JSON report.
# A per-step breakdown first (worded so that only the closing line reads `N passed, N failed`).
# Returns non-zero, and so fails npm test, when anything counted as failed (a flaky test too: Playwright exits 0 for it).
print_test_counts() {
  npx --no-install node -e '
    const fs = require("fs");
    let passed = 0, failed = 0, skipped = 0, flaky = 0;
    const flakyTitles = [];
    const pad = (s) => s.padEnd(14);
    for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
      const [name, kind, rc, report] = line.split("\t");
      if (kind !== "runner") {
        if (rc === "0") passed++;
        else failed++;
        console.log(`  ${pad(name)} ${rc === "0" ? "check passed" : rc === "skip" ? "check not run (counted as failed)" : `check FAILED (exit code ${rc})`}`);
        continue;
      }
      let r;
      try { r = JSON.parse(fs.readFileSync(report, "utf8")); } catch (e) { r = null; }
      if (!r || typeof r !== "object") {
        failed++;
        console.log(`  ${pad(name)} no readable JSON report (exit code ${rc}): counted as 1 failed`);
        continue;
      }
      let p, f, s, fl = 0, extra = "";
      if (r.stats) {
        // Playwright: expected = passed, unexpected = failed, flaky = failed first and passed on retry; errors = outside tests.
        p = r.stats.expected ?? 0; f = r.stats.unexpected ?? 0; s = r.stats.skipped ?? 0; fl = r.stats.flaky ?? 0;
        const errors = (r.errors ?? []).length;
        if (errors) { f += errors; extra += `, ${errors} error(s) outside tests`; }
        const walk = (suite, trail) => {
          for (const spec of suite.specs ?? []) for (const t of spec.tests ?? [])
            if (t.status === "flaky") flakyTitles.push([...trail, spec.title].filter(Boolean).join(" › ") + (t.projectName ? ` [${t.projectName}]` : ""));
          for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
        };
        for (const suite of r.suites ?? []) walk(suite, [suite.title]);
      } else {
        // Jest: a suite that could not run (syntax error, failing import) counts as one failed test.
        p = r.numPassedTests ?? 0; s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
        const broken = r.numRuntimeErrorTestSuites ?? 0;
        f = (r.numFailedTests ?? 0) + broken;
        if (broken) extra += `, ${broken} suite(s) that could not run`;
      }
      if (rc !== "0" && f + fl === 0) { f = 1; extra += `, exit code ${rc} without a failed test: counted as 1 failed`; }
      passed += p; failed += f + fl; skipped += s; flaky += fl;
      console.log(`  ${pad(name)} passed ${p}  failed ${f}  skipped ${s}${fl ? `  flaky ${fl}` : ""}${extra}`);
    }
    for (const t of flakyTitles) console.log(`  flaky: ${t}`);
    if (flaky) console.log(`flaky (passed on retry, counted as failed): ${flaky}`);
    console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.exitCode = failed ? 3 : 0;
  ' "$STEPS_TSV"
  local rc=$?
  # 3: some counted as failed. Anything else: the counting itself failed; still close with a line that fails the run.
  case $rc in
    0 | 3) ;;
    *) echo "could not count the tests (exit code $rc)"; echo 'tests: 0 passed, 1 failed, 0 skipped' ;;
  esac
  return $rc
}

if ! run prerequisites "npm dependencies, chromium, postgresql" prerequisites; then
  print_summary
  echo 'tests: 0 passed, 1 failed, 0 skipped'
  exit 1
fi

wants typecheck && start typecheck "tsc, strict" npm run --silent typecheck
wants lint && start lint "ESLint" npm run --silent lint
wants format && start format "Prettier (check only; npm run format rewrites)" npm run --silent format:check
wants typecheck && finish typecheck
wants lint && finish lint
wants format && finish format
wants audit && run audit "npm audit, production dependencies" npm run --silent audit:deps
# Each runner also writes its counts as JSON, summed into the closing `tests:` line.
wants jest && KIND=runner REPORT="$RESULTS/jest.json" run jest "unit + API tests on PGlite" "${JEST[@]}" --json --outputFile="$RESULTS/jest.json" tests/unit tests/api
wants jest-pg && KIND=runner REPORT="$RESULTS/jest-pg.json" run jest-pg "API tests on PostgreSQL 15" bash scripts/with-postgres.sh "${JEST[@]}" --json --outputFile="$RESULTS/jest-pg.json" tests/api

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

wants artefact && run artefact "the Dockerfile's artefact, built in clean folders, serves a page" npm run --silent test:artefact

if wants e2e; then
  if [ $built = 0 ]; then skip e2e "no successful build"
  else KIND=runner REPORT="$RESULTS/e2e.json" PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/e2e.json" run e2e "Playwright journeys in Chromium" npx --no-install playwright test --reporter=list,json
  fi
fi

print_summary
if [ $FAILED = 0 ]; then printf '%sAll steps passed.%s\n' "$G" "$N"; else printf '%sSome steps FAILED (see above).%s\n' "$R" "$N"; fi
printf '\n%s━━━ tests ━━━%s\n' "$B" "$N"
print_test_counts || FAILED=1
exit $FAILED
