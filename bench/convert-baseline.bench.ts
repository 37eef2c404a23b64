/**
 * Benchmark (run by `npm run bench`): the converter against a fixed baseline, converter 0.6
 * (commit 5a0c509), and against the parent commit, so that its speed is never judged against its
 * parent alone (a chain of changes each a little slower than its parent adds up). Generates
 * deterministically (scripts/mrf/generate-large-mrf.ts, seed 5) a file shaped like a real insurer's
 * in-network file: 400 MB of JSON (gzip), one 60 MB item, ~2,400 items of ~140 KB and 20,000
 * provider references, in a catalog of one insurer (snapshot 2025-01); then, the same way,
 * convert-large's 1 GB file (real PFS codes, one 200 MB item, 50k provider references). Materialises the baseline
 * and the parent into temp dirs (bench/convert-baseline-trees.ts) beside the work tree, uncommitted
 * changes included, gunzips the file once (the OS cache), then converts it with each version in its
 * own process, from a fresh output and store, with that version's runtime flags, in the order
 * baseline, parent, current, `--runs` times, so the machine's drift hits the three alike. Prints per
 * version the median (min-max) of wall seconds, CPU seconds of every thread, peak RSS, rate rows
 * and MB/s of JSON; the ratios of the current version's medians to the other two; and the target:
 * current wall <= 0.5x the baseline's (docs/benchmarks.md).
 * Options: `--mb <n>` (size of the JSON, default 400), `--large-gb <n>` (convert-large's file,
 * default 1; 0: not compared), `--runs <n>` (default 3), `--baseline <rev>`
 * (default 5a0c509), `--parent <rev>` (default HEAD~1). A revision the repository does not hold (a
 * shallow clone) is named in one line and skipped: a full run then stops and exits 1, since its
 * figures would lack their reference; tiny mode (bench/tiny.ts: 2 MB, 500 provider references, one
 * run each, convert-large's file at 2 MB), which only proves the benchmark runs, measures the versions it has and exits 0.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { generateLargeMrf } from '../scripts/mrf/generate-large-mrf';
import { pfsCodes } from './pfs-codes';
import type { Measured } from './convert-process';
import { reportLines, type VersionRuns } from './convert-baseline-report';
import { currentTree, dropTree, materialise, measureIn, resolveCommit, type Tree } from './convert-baseline-trees';
import { benchArgs, numberArg, sized, TINY } from './tiny';

/** The baseline: converter 0.6, the last version before the chain of slower changes. */
const DEFAULT_BASELINE = '5a0c509';
const MB = numberArg('--mb', sized(400, 2));
const RUNS = Math.max(1, Math.floor(numberArg('--runs', sized(3, 1))));
/** Size of convert-large's file compared second (GB of JSON; 0: none). */
const LARGE_GB = numberArg('--large-gb', sized(1, 0.002));
/** Provider references: about a real 400 MB file's; 500 in tiny mode, as convert-large's. */
const PROVIDER_REFERENCES = sized(20_000, 500);
/**
 * Items of ~140 KB (70-210 KB) and one of 60 MB per 400 MB: about 2,400 items at 400 MB, as in the
 * real file the benchmark stands for (2,415 items). The generator's rates name 1-5 references and
 * carry 1-3 prices, so its rate rows per byte are its own (~5.9 M at 400 MB, where the real file
 * has 3.4 M): printed, not tuned.
 */
const ITEM_BYTES = 140_000;
const BIG_ITEM_BYTES_PER_MB = 60e6 / 400;

function stringArg(name: string, dflt: string): string {
  const args = benchArgs();
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : dflt;
}

async function gunzipSeconds(file: string): Promise<number> {
  const t = performance.now();
  await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), createGunzip({ chunkSize: 256 * 1024 }),
    new Writable({ write: (_c, _e, done) => done() }));
  return (performance.now() - t) / 1000;
}

const uptime = (): string => os.loadavg().map((l) => l.toFixed(2)).join(', ');

/** A full run without one of its references: it stops before generating anything. */
class SkippedVersions extends Error {}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-bench-vs-baseline-'));

/**
 * Converts `file` (a catalog of one insurer, snapshot 2025-01) with every tree, `RUNS` times in
 * turn after a warm-up gunzip, and prints the report (bench/convert-baseline-report.ts).
 * `generated` is the generator's account of the file (its JSON bytes and rate rows).
 */
async function compare(trees: readonly Tree[], file: string, generated: { jsonBytes: number; rateRows: number }): Promise<void> {
  const catalog = path.join(tmp, 'catalog.json');
  await writeFile(catalog, JSON.stringify({ reference_insurer: 'bar', insurers: [{ id: 'bar', name: 'Bar-like', files: [{ snapshot: '2025-01', url: file }] }] }));
  const gz = await gunzipSeconds(file);
  console.log(`warm-up gunzip: ${gz.toFixed(1)} s (${(generated.jsonBytes / 1e6 / gz).toFixed(0)} MB/s); ${os.availableParallelism()} cores, load average ${uptime()}`);
  const runs = new Map<Tree, Measured[]>(trees.map((t) => [t, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const t of trees) {
      const m = await measureIn(t, catalog, path.join(tmp, 'out'), path.join(tmp, 'store'));
      runs.get(t)!.push(m);
      console.log(`  run ${i + 1}/${RUNS} ${t.label}: ${m.seconds.toFixed(1)} s, ${m.cpuSeconds.toFixed(1)} CPU s, peak RSS ${m.maxRssMb.toFixed(0)} MB`);
    }
  }
  console.log(`load average after: ${uptime()}`);
  const versions: VersionRuns[] = trees.map((t) => ({
    name: t.sha ? `${t.label} ${t.rev} (${t.sha.slice(0, 8)})` : `${t.label} (work tree)`, label: t.label, runs: runs.get(t)!,
  }));
  for (const line of reportLines(versions, generated.jsonBytes, generated.rateRows)) console.log(line);
}

const trees: Tree[] = [];
let skipped = 0;
try {
  // the trees first: a missing revision is known before minutes of generation
  // tiny mode converts with the baseline's tree and the work tree only: the parent's is the same path again
  const versions = [['baseline', stringArg('--baseline', DEFAULT_BASELINE)], ['parent', stringArg('--parent', 'HEAD~1')]] as const;
  if (TINY) console.log('tiny mode: the parent is left out');
  for (const [label, rev] of versions.filter(([label]) => !TINY || label !== 'parent')) {
    const sha = resolveCommit(rev);
    if (sha === null) {
      console.log(`${label} ${rev}: not in this repository (a shallow clone?): skipped`);
      skipped++;
      continue;
    }
    trees.push(await materialise(label, rev, sha));
  }
  if (skipped > 0 && !TINY) throw new SkippedVersions(`${skipped} version(s) missing`);
  trees.push(await currentTree());
  for (const t of trees) {
    console.log(`${t.label} ${t.rev}${t.sha ? ` (${t.sha.slice(0, 8)})` : ''}: node ${t.nodeFlags.join(' ') || '(no flags)'}, ` +
      `${Object.entries(t.env).map(([k, v]) => `${k}=${v}`).join(' ') || '(no env)'}, ${t.takesStore ? '--store <fresh temp dir>' : 'store <out>.store, deleted'}`);
  }

  const barLike = path.join(tmp, 'bar-like.json.gz');
  const g = await generateLargeMrf(barLike, {
    targetBytes: MB * 1e6, bigItemBytes: MB * BIG_ITEM_BYTES_PER_MB, itemBytes: ITEM_BYTES, providerReferences: PROVIDER_REFERENCES, seed: 5,
  });
  console.log(`\nbar-like: generated ${(g.jsonBytes / 1e6).toFixed(0)} MB of JSON (${((await stat(barLike)).size / 1e6).toFixed(1)} MB gzip): ` +
    `${g.items.toLocaleString('en-US')} items (one of ${(MB * BIG_ITEM_BYTES_PER_MB / 1e6).toFixed(1)} MB), ` +
    `${PROVIDER_REFERENCES.toLocaleString('en-US')} provider references, ${g.rateRows.toLocaleString('en-US')} rate rows`);
  await compare(trees, barLike, g);
  await rm(barLike, { force: true });
  if (LARGE_GB > 0) {
    // convert-large's first file (bench/convert-large.bench.ts): real PFS codes, one item of a fifth of the file
    const large = path.join(tmp, 'large.json.gz');
    const gl = await generateLargeMrf(large, {
      targetBytes: LARGE_GB * 1e9, bigItemBytes: LARGE_GB * 200e6, codes: await pfsCodes(), providerReferences: sized<number | undefined>(undefined, 500),
    });
    console.log(`\nconvert-large's file: generated ${(gl.jsonBytes / 1e6).toFixed(0)} MB of JSON (${((await stat(large)).size / 1e6).toFixed(1)} MB gzip): ` +
      `${gl.items.toLocaleString('en-US')} items of real PFS codes (one of ${(LARGE_GB * 200).toFixed(1)} MB), ${gl.rateRows.toLocaleString('en-US')} rate rows`);
    await compare(trees, large, gl);
  }
} catch (e) {
  if (!(e instanceof SkippedVersions)) throw e;
  console.error(`${skipped} version(s) missing: a full run's figures would lack their reference, so none is measured`);
  process.exitCode = 1;
} finally {
  for (const t of trees) await dropTree(t);
  await rm(tmp, { recursive: true, force: true });
}
