#!/usr/bin/env bash
# `npm test`: lint, typecheck, the app's build and a short run of the MRF fuzz harness (`npm run
# fuzz`; FUZZ_SEED, default 1, FUZZ_CASES, default 140) side by side, then the unit tests (every
# benchmark among them, run once at its tiny size by test/bench/tiny.test.ts, no timing asserted),
# then the end-to-end tests (vitest.e2e.config.ts: two browsers at a time, then the timed files
# alone); keeps going after a failure.
# Lint, typecheck and the fuzz run count as one test each; vitest tests are counted from the JSON
# reports (a suite that failed to load, or a vitest run that failed with no failed test, counts as
# one failure). Writes test-results/summary.txt with each runner's wall time; the LAST line printed
# is `N passed, N failed`.
# Exit status: 0 when nothing failed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json test-results/summary.txt

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

# Records a pass/fail for a one-test step whose wall time is known: summary_ok <name> <exit status> <took>
summary_ok() {
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); summary+=("$1: passed$3")
  else failed=$((failed + 1)); summary+=("$1: FAILED (exit $2)$3"); fi
}

# Counts a vitest JSON report: count_vitest <name> <json file> <exit status of vitest>
count_vitest() {
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
  lap
  summary+=("$1: $p passed, $f failed (exit $3)$took")
}

# Lint, typecheck, the app's build and the fuzz run go side by side: each is mostly one thread.
# Their output is printed when all four have ended, one after the other.
# The app is built once for the run: the end-to-end setup and the tiny runs of the two browser
# benchmarks serve this build (scripts/server/build-app.ts prebuiltApp) instead of building it again.
app_build_root=$(mktemp -d)
# the generated shapes the run's tests and tiny benchmarks copy (test/datasets-once.ts)
export COMPETE_TEST_DATASETS
COMPETE_TEST_DATASETS=$(mktemp -d)
trap 'rm -rf "$app_build_root" "$COMPETE_TEST_DATASETS"' EXIT
checks_dir="$app_build_root/checks"
mkdir -p "$checks_dir"

# Runs a command in the background: its output to $checks_dir/<name>.log, then its exit status and
# wall seconds to $checks_dir/<name>.status. bg <name> <command...>
bg() {
  local name=$1
  shift
  (
    s=$(date +%s)
    "$@" > "$checks_dir/$name.log" 2>&1
    rc=$?
    echo "$rc $(( $(date +%s) - s ))" > "$checks_dir/$name.status"
  ) &
}

# Prints a background step's output under its heading; sets `rc` and `took` from its status file.
# show <name> <heading>
show() {
  echo "== $2"
  cat "$checks_dir/$1.log"
  local status
  status=$(cat "$checks_dir/$1.status" 2>/dev/null || echo "1 0")
  rc=${status% *}
  took=" in ${status#* } s"
}

bg lint npx eslint .
bg typecheck npx tsc -p tsconfig.json --noEmit
# a fixed seed and count: the same cases on every machine, so a red run is reproducible
bg fuzz npx tsx scripts/fuzz/cli.ts --seed "${FUZZ_SEED:-1}" --cases "${FUZZ_CASES:-140}"
bg build node --import tsx -e 'import("./scripts/server/build-app.ts").then((m) => m.buildApp(process.argv[1]))' "$app_build_root/dist"
wait
show lint 'lint: npx eslint .'
summary_ok lint "$rc" "$took"
show typecheck 'typecheck: npx tsc -p tsconfig.json --noEmit'
summary_ok typecheck "$rc" "$took"
show fuzz "fuzz: npx tsx scripts/fuzz/cli.ts --seed ${FUZZ_SEED:-1} --cases ${FUZZ_CASES:-140}"
summary_ok fuzz "$rc" "$took"
show build 'building the app once for the tests'
if [ "$rc" -eq 0 ]; then
  export COMPETE_APP_BUILD="$app_build_root/dist"
else
  echo "the app did not build: the tests that need it build it themselves"
fi
summary+=("app build (not a test)$took")
lap
summary+=("lint, typecheck, fuzz and app build side by side in $(( step_start - started )) s")

echo "== unit tests: npx vitest run"
npx vitest run --reporter=default --reporter=json --outputFile=test-results/unit.json
count_vitest unit test-results/unit.json $?

echo "== end-to-end tests: npx vitest run -c vitest.e2e.config.ts"
npx vitest run -c vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=test-results/e2e.json
count_vitest e2e test-results/e2e.json $?

total="$passed passed, $failed failed"
summary+=("all: $(( $(date +%s) - started )) s")
{ printf '%s\n' "${summary[@]}"; echo "$total"; } > test-results/summary.txt
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "$total"
[ "$failed" -eq 0 ]
