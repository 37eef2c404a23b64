/**
 * `npm run bench [-- <name filter>] [--tiny] [<benchmark options>]`: runs every `bench/*.bench.ts`
 * one after the other, each in its own process (so peak RSS figures are per benchmark), and prints
 * their reports. Benchmarks measure speed and memory goals; tests never time anything. `--tiny`
 * (or `COMPETE_BENCH_TINY=1`) runs each once at a size of seconds (bench/tiny.ts), as CI does
 * (test/bench/tiny.test.ts). The filter is the first argument when it is not an option; the
 * arguments after it go to every benchmark run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { benchArgs, TINY, TINY_ENV } from './tiny';

const dir = import.meta.dirname;
const args = benchArgs();
const filter = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : '';
const passed = filter ? args.slice(1) : args;
const benches = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
if (benches.length === 0) {
  console.error(`no benchmark matches '${filter}'`);
  process.exit(1);
}
const env = TINY ? { ...process.env, [TINY_ENV]: '1' } : process.env;
let failed = 0;
for (const f of benches) {
  console.log(`\n== ${f}${TINY ? ' (tiny)' : ''}`);
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f), ...passed], { stdio: 'inherit', env });
  if (r.status !== 0) {
    failed++;
    console.error(`${f} failed (${r.error?.message ?? (r.signal ? `signal ${r.signal}` : `exit ${r.status}`)})`);
  }
  if (TINY) console.log(`(${f}: ${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
if (failed) {
  console.error(`${failed} benchmark(s) failed`);
  process.exit(1);
}
