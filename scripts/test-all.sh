#!/usr/bin/env bash
# `npm test`: lint, typecheck, then the unit tests (every benchmark among them, run once at its tiny
# size by test/bench/tiny.test.ts, no timing asserted) side by side with the end-to-end tests
# followed by a short run of the MRF fuzz harness (`npm run fuzz`; FUZZ_SEED, default 1, FUZZ_CASES,
# default 140); keeps going after a failure.
# The two sides run at once because the end-to-end run leaves a fifth of the two cores idle (it
# waits on Chromium and the pages' timers) while the unit run fills them; each side writes its
# output to test-results/<runner>.log, printed once both have ended.
# Lint, typecheck and the fuzz run count as one test each; vitest tests are counted from the JSON
# reports (a suite that failed to load, or a vitest run that failed with no failed test, counts as
# one failure). Writes test-results/summary.txt with each runner's wall time; the LAST line printed
# is `N passed, N failed`.
# Exit status: 0 when nothing failed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json test-results/summary.txt test-results/*.log test-results/*.rc test-results/*.took

passed=0
failed=0
summary=()
started=$(date +%s)
step_start=$started

# Sets `took` to the wall time of the step that just ended, as ` in N s`, and starts the next one's.
took=''
lap() {
  local now
  now=$(date +%s)
  took=" in $((now - step_start)) s"
  step_start=$now
}

# Records a pass/fail for a one-test step that just ended: record <name> <exit status>
record() {
  lap
  record_at "$@"
}

# As record, with `took` already set (a runner timed on its own): record_at <name> <exit status>
record_at() {
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); summary+=("$1: passed$took")
  else failed=$((failed + 1)); summary+=("$1: FAILED (exit $2)$took"); fi
}

# Counts a vitest JSON report, with `took` set to the runner's own wall time:
# count_vitest_at <name> <json file> <exit status of vitest>
count_vitest_at() {
  local counts p f
  counts=$(node -e '
    const fs = require("node:fs");
    const [file, rc] = [process.argv[1], Number(process.argv[2])];
    let p = 0, f = 0;
    if (fs.existsSync(file)) {
      const r = JSON.parse(fs.readFileSync(file, "utf8"));
      p = r.numPassedTests ?? 0;
      f = r.numFailedTests ?? 0;
      for (const s of r.testResults ?? []) {
        if (s.status === "failed" && (s.assertionResults ?? []).length === 0) f += 1;
      }
    }
    if (rc !== 0 && f === 0) f = 1;
    console.log(p + " " + f);
  ' "$2" "$3")
  p=${counts% *}
  f=${counts#* }
  passed=$((passed + p))
  failed=$((failed + f))
  summary+=("$1: $p passed, $f failed (exit $3)$took")
}

echo "== lint: npx eslint ."
npx eslint .
record lint $?

echo "== typecheck: npx tsc -p tsconfig.json --noEmit"
npx tsc -p tsconfig.json --noEmit
record typecheck $?

# The app is built once for the run: the end-to-end setup and the tiny runs of the two browser
# benchmarks serve this build (scripts/server/build-app.ts prebuiltApp) instead of building it again.
echo "== building the app once for the tests"
app_build_root=$(mktemp -d)
# the generated shapes the run's tests and tiny benchmarks copy (test/datasets-once.ts)
export COMPETE_TEST_DATASETS
COMPETE_TEST_DATASETS=$(mktemp -d)
trap 'rm -rf "$app_build_root" "$COMPETE_TEST_DATASETS"' EXIT
if node --import tsx -e 'import("./scripts/server/build-app.ts").then((m) => m.buildApp(process.argv[1]))' "$app_build_root/dist"; then
  export COMPETE_APP_BUILD="$app_build_root/dist"
else
  echo "the app did not build: the tests that need it build it themselves"
fi
lap
summary+=("app build (not a test)$took")

# Runs a command with its output in test-results/<name>.log, its exit status in <name>.rc and its
# wall time in seconds in <name>.took: run_logged <name> <command...>
run_logged() {
  local name=$1 t0
  shift
  t0=$(date +%s)
  "$@" > "test-results/$name.log" 2>&1
  echo $? > "test-results/$name.rc"
  echo $(( $(date +%s) - t0 )) > "test-results/$name.took"
}

echo "== unit tests: npx vitest run (beside the end-to-end tests and fuzz; output at the end)"
run_logged unit npx vitest run --reporter=default --reporter=json --outputFile=test-results/unit.json &
unit_side=$!
echo "== end-to-end tests: npx vitest run -c vitest.e2e.config.ts, then fuzz: npx tsx scripts/fuzz/cli.ts --seed ${FUZZ_SEED:-1} --cases ${FUZZ_CASES:-140}"
{
  run_logged e2e npx vitest run -c vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=test-results/e2e.json
  # a fixed seed and count (about 20 s): the same cases on every machine, so a red run is reproducible
  run_logged fuzz npx tsx scripts/fuzz/cli.ts --seed "${FUZZ_SEED:-1}" --cases "${FUZZ_CASES:-140}"
} &
e2e_side=$!
wait "$unit_side" "$e2e_side"
lap
summary+=("unit, end-to-end and fuzz side by side$took")

# The status, or 1 when the runner left none: rc_of <name>
rc_of() { cat "test-results/$1.rc" 2>/dev/null || echo 1; }
for name in unit e2e fuzz; do
  echo "== output of $name"
  cat "test-results/$name.log" 2>/dev/null
done
took=" in $(cat test-results/unit.took 2>/dev/null || echo '?') s"
count_vitest_at unit test-results/unit.json "$(rc_of unit)"
took=" in $(cat test-results/e2e.took 2>/dev/null || echo '?') s"
count_vitest_at e2e test-results/e2e.json "$(rc_of e2e)"
took=" in $(cat test-results/fuzz.took 2>/dev/null || echo '?') s"
record_at fuzz "$(rc_of fuzz)"

total="$passed passed, $failed failed"
summary+=("all: $(( $(date +%s) - started )) s")
{ printf '%s\n' "${summary[@]}"; echo "$total"; } > test-results/summary.txt
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "$total"
[ "$failed" -eq 0 ]
