/**
 * Runs one conversion and prints one JSON line `{ seconds, rateRows, maxRssMb, cpuSeconds }`
 * (peak RSS of this process: main thread, parser threads and DuckDB; CPU seconds of every thread,
 * which varies less than wall time on a shared machine). Used by bench/convert-large.bench.ts,
 * which runs each measurement in its own process so peak RSS figures do not mix.
 * With `--statements`, every DuckDB statement over 50 ms is timed on stderr (wall and CPU seconds,
 * RSS, the SQL's start), the way to see where the SQL part of a conversion goes.
 * With `--build-only --store <dir>`, the build stage alone from the store's partitions (docs/converter.md, Two stages).
 * Usage: `node --import tsx scripts/convert/cli/measure-convert.ts <catalog.json> <out-dir> [jobs] [--statements] [--build-only --store <dir>]`
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { convertCatalog } from '../index';

const argv = process.argv.slice(2);
const storeAt = argv.indexOf('--store');
const store = storeAt >= 0 ? argv[storeAt + 1] : undefined;
const args = argv.filter((a, k) => !a.startsWith('--') && (storeAt < 0 || k !== storeAt + 1));
const [catalog, out, jobs] = args;

if (process.argv.includes('--statements')) {
  const run = DuckDBConnection.prototype.run;
  const t0 = performance.now();
  DuckDBConnection.prototype.run = async function timed(this: DuckDBConnection, ...a: Parameters<typeof run>) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const r = await run.apply(this, a);
    const ms = performance.now() - t;
    const c = process.cpuUsage(cpu);
    if (ms > 50) {
      process.stderr.write(`[${((t - t0) / 1000).toFixed(1)} s] ${(ms / 1000).toFixed(2)} s, cpu ${((c.user + c.system) / 1e6).toFixed(2)} s, ` +
        `rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB: ${a[0].replace(/\s+/g, ' ').trim().slice(0, 100)}\n`);
    }
    return r;
  };
  // a streamed result (forEachChunk) is timed from the query to its last chunk
  const stream = DuckDBConnection.prototype.stream;
  DuckDBConnection.prototype.stream = async function timedStream(this: DuckDBConnection, ...a: Parameters<typeof stream>) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const r = await stream.apply(this, a);
    const fetchChunk = r.fetchChunk.bind(r);
    r.fetchChunk = async () => {
      const chunk = await fetchChunk();
      if (!chunk || chunk.rowCount === 0) {
        const ms = performance.now() - t;
        const c = process.cpuUsage(cpu);
        if (ms > 50) {
          process.stderr.write(`[${((t - t0) / 1000).toFixed(1)} s] ${(ms / 1000).toFixed(2)} s, cpu ${((c.user + c.system) / 1e6).toFixed(2)} s, ` +
            `streamed: ${a[0].replace(/\s+/g, ' ').trim().slice(-100)}\n`);
        }
      }
      return chunk;
    };
    return r;
  };
}

const t = performance.now();
const { manifest } = await convertCatalog(catalog!, out!, {
  quiet: true, jobs: jobs ? Number(jobs) : undefined,
  ...(store !== undefined ? { store } : {}), buildOnly: argv.includes('--build-only'),
});
const seconds = (performance.now() - t) / 1000;
const cpu = process.cpuUsage();
console.log(JSON.stringify({
  seconds,
  rateRows: manifest.counts.rate_rows,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
}));
