/**
 * Peak memory of a conversion with one very long string (scripts/mrf/long-strings.ts): two
 * in-network files of the same ~40 MB of items, one of which also holds a `description` of
 * LONG_MB MB, each converted in its own process as `npm run convert` runs it; prints both peak RSS
 * figures and their difference (target: at most 50 MB more with the long string).
 * `npm run bench -- long-string [MB]` (default 600; tiny mode, bench/tiny.ts: 2 MB and 2,000 items).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { measureConversion, type Measured } from './convert-process';
import { benchArgs, sized } from './tiny';

const LONG_MB = Number(benchArgs().find((a) => !a.startsWith('-')) ?? sized(600, 2));
/** Items of each file (even: the long string is item ITEMS / 2). */
const ITEMS = sized(40_000, 2_000);
const TARGET_MB = 50;


const price = (rate: number): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}`;
const item = (k: number, description: string): string =>
  `{"negotiation_arrangement":"ffs","name":"Service ${k}","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"${10000 + (k % 9000)}",` +
  `"description":"${description}","negotiated_rates":[{"provider_references":[${1 + (k % 50)}],"negotiated_prices":[${price(50 + (k % 400))},${price(60 + (k % 300))}]}]}`;

/** Writes an in-network file of ITEMS items; with `longMb`, item ITEMS/2's description has that many MB. */
async function writeMrf(file: string, longMb: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  const groups = Array.from({ length: 50 }, (_, g) =>
    `{"provider_group_id":${g + 1},"provider_groups":[{"npi":[${1000000000 + g}],"tin":{"type":"ein","value":"${100000000 + g}"}}]}`);
  await write(`{"reporting_entity_name":"Long String Plan","reporting_entity_type":"issuer","last_updated_on":"2025-07-01","version":"1.0.0",` +
    `"provider_references":[${groups.join(',')}],"in_network":[`);
  const mb = 'x'.repeat(1 << 20);
  for (let k = 0; k < ITEMS; k++) {
    if (k > 0) await write(',\n');
    if (longMb > 0 && k === ITEMS / 2) {
      const [head, tail] = item(k, '\u0000').split('\u0000') as [string, string];
      await write(head);
      for (let m = 0; m < longMb; m++) await write(mb);
      await write(tail);
    } else await write(item(k, `service ${k}`));
  }
  await write(']}');
  out.end();
  await once(out, 'finish');
}


const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-long-string-'));
try {
  const runs: Array<[string, Measured]> = [];
  for (const [name, mb] of [['without', 0], ['with', LONG_MB]] as const) {
    const file = path.join(tmp, `${name}.json`);
    await writeMrf(file, mb);
    const catalog = path.join(tmp, `${name}-catalog.json`);
    await writeFile(catalog, JSON.stringify({ reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: file }] }] }));
    runs.push([name, measureConversion(catalog, path.join(tmp, `${name}-out`))]);
    await rm(file);
  }
  const [[, base], [, long]] = runs as [[string, Measured], [string, Measured]];
  const more = long.maxRssMb - base.maxRssMb;
  console.log(`${ITEMS.toLocaleString('en-US')} items, ${base.rateRows.toLocaleString('en-US')} rate rows; ${os.availableParallelism()} cores`);
  console.log(`peak RSS without the long string: ${base.maxRssMb.toFixed(0)} MB (${base.seconds.toFixed(1)} s)`);
  console.log(`peak RSS with a ${LONG_MB} MB description: ${long.maxRssMb.toFixed(0)} MB (${long.seconds.toFixed(1)} s)`);
  console.log(`difference: ${more.toFixed(0)} MB (target <= ${TARGET_MB} MB: ${more <= TARGET_MB ? 'met' : 'NOT met'})`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
