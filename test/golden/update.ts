/**
 * Rewrites the golden files (test/golden/<dataset>.json) from the datasets as the current code
 * makes them: `npx tsx test/golden/update.ts [dataset ...]` (default: every dataset of
 * datasets.ts GOLDEN_DATASETS). Run it only for a deliberate change of a rule or a table, named in
 * the commit (README.md); the diff of the files shows which tables and answers it changed.
 * Exits with status 1 on an unknown dataset name.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GOLDEN_DATASETS, goldenFile, prepareDataset, type GoldenDataset } from './datasets';
import { formatGolden, goldenOf } from './record';

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(GOLDEN_DATASETS as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`golden update: unknown dataset ${unknown.join(', ')} (one of ${GOLDEN_DATASETS.join(', ')})`);
  process.exit(1);
}
const names = (asked.length > 0 ? asked : [...GOLDEN_DATASETS]) as GoldenDataset[];

for (const name of names) {
  const work = await mkdtemp(path.join(os.tmpdir(), `compete-golden-${name}-`));
  try {
    const t = performance.now();
    const record = await goldenOf(await prepareDataset(name, work));
    await writeFile(goldenFile(name), formatGolden(record));
    const n = Object.keys(record.tables).length + Object.keys(record.answers).length;
    console.log(`${name}: ${n} hashes written to ${path.relative(process.cwd(), goldenFile(name))} in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
