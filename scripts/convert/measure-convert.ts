/**
 * Runs one conversion and prints one JSON line `{ seconds, rateRows, maxRssMb }` (peak RSS of this
 * process: main thread, parser threads and DuckDB). Used by bench/convert-large.bench.ts, which
 * runs each measurement in its own process so peak RSS figures do not mix.
 * Usage: `node --import tsx scripts/convert/measure-convert.ts <catalog.json> <out-dir> [jobs]`
 */
import { convertCatalog } from './index';

const [catalog, out, jobs] = process.argv.slice(2);
const t = performance.now();
const { manifest } = await convertCatalog(catalog!, out!, { quiet: true, jobs: jobs ? Number(jobs) : undefined });
const seconds = (performance.now() - t) / 1000;
console.log(JSON.stringify({ seconds, rateRows: manifest.counts.rate_rows, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
