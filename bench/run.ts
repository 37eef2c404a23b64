/**
 * `npm run bench [-- <name filter>]`: runs every `bench/*.bench.ts` one after the other, each in
 * its own process (so peak RSS figures are per benchmark), and prints their reports. Benchmarks
 * measure speed and memory goals; tests never time anything.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const filter = process.argv[2] ?? '';
const benches = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
let failed = 0;
for (const f of benches) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f), ...process.argv.slice(3)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed) {
  console.error(`${failed} benchmark(s) failed`);
  process.exit(1);
}
