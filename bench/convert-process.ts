/**
 * One conversion measured in its own process, as `npm run convert` runs it (runtime-flags.ts: V8's
 * initial old space, glibc's malloc arenas), by scripts/convert/cli/measure-convert.ts: so that each
 * peak RSS figure is one conversion's. Shared by the converter benchmarks.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CONVERTER_ENV, CONVERTER_NODE_FLAGS } from '../scripts/convert/cli/runtime-flags';

const ROOT = path.resolve(import.meta.dirname, '..');

/** What measure-convert.ts prints: wall seconds, rate rows, peak RSS (MB), CPU seconds of every thread. */
export interface Measured {
  seconds: number;
  rateRows: number;
  maxRssMb: number;
  cpuSeconds: number;
}

/**
 * Converts `catalog` into `out` in a child process; `extra` goes to measure-convert.ts (`--build-only`, `--store <dir>`).
 * @throws Error with the child's stderr when the conversion fails.
 */
export function measureConversion(catalog: string, out: string, extra: string[] = []): Measured {
  const r = spawnSync(process.execPath, [...CONVERTER_NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'scripts/convert/cli/measure-convert.ts'), catalog, out, ...extra],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24, env: { ...process.env, ...CONVERTER_ENV } });
  if (r.status !== 0) throw new Error(`conversion failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured;
}
