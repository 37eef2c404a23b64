/**
 * The stream-json baseline of bench/convert-large.bench.ts, run in its own process (it holds the
 * 200 MB item as one JS object, ~1.8 GB of heap, which must not count in the converter's peak RSS):
 * the pipeline stream-json documents for a document too large for `JSON.parse`, gunzip -> parser ->
 * pick every element of the two root arrays -> streamValues (one JS object per element), the same
 * unit of work the converter's reader hands on. Prints `{ seconds, elements, prices, maxRssMb }`.
 * Usage: `node --import tsx bench/stream-json-baseline.ts <file.json.gz>`
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';

const file = process.argv[2]!;
const t = performance.now();
let elements = 0;
let prices = 0;
await new Promise<void>((resolve, reject) => {
  const p = chain([
    createReadStream(file, { highWaterMark: 1 << 20 }),
    createGunzip(),
    parser(),
    pick({ filter: /^(in_network|provider_references)\.\d+$/ }),
    streamValues(),
  ]);
  p.on('data', ({ value }: { value: { negotiated_rates?: Array<{ negotiated_prices: unknown[] }> } }) => {
    elements++;
    for (const r of value.negotiated_rates ?? []) prices += r.negotiated_prices.length;
  });
  p.on('end', resolve);
  p.on('error', reject);
});
console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, elements, prices, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
