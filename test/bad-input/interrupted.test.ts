/**
 * A run that does not end by itself (scripts/convert/common/atomic-dir.ts, scripts/convert/cli/convert.ts): the
 * real command line process converts a generated in-network file of about 40 MB (a few seconds)
 * onto an existing dataset and is signalled mid-run. SIGKILL leaves its temporary directory, which
 * the next run removes before writing; SIGINT and SIGTERM make it remove the directory itself and
 * exit 130 / 143 with one stderr line. The existing dataset is byte for byte unchanged each time.
 * A run killed between the two renames of swapIntoPlace (simulated) gets its dataset back; a
 * temporary directory written before the last boot is stale even if its pid was given again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { generateLargeMrf } from '../../scripts/mrf/generate-large-mrf';
import { leftovers, makeWorkspace, re, runCli, spawnCli, treeHash, waitFor, type Workspace } from './harness';

let ws: Workspace;
/** A catalog naming the generated file. */
let bigCatalog: string;

beforeAll(async () => {
  ws = await makeWorkspace('bad-kill');
  await generateLargeMrf(path.join(ws.dir, 'big.json.gz'), { targetBytes: 40e6, providerReferences: 2000, itemBytes: 100_000 });
  bigCatalog = path.join(ws.dir, 'catalog-big.json');
  await writeFile(bigCatalog, JSON.stringify({ reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: 'big.json.gz' }] }] }));
  expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/**
 * Starts the real CLI on the big catalog and resolves once it is at `stage`: `parse`, its parser
 * thread has spooled rows into the temporary directory's `.work`; `write`, the dataset's Parquet
 * files are being written beside it.
 */
async function startBigRun(stage: 'parse' | 'write'): Promise<ReturnType<typeof spawnCli>> {
  const earlier = new Set(await leftovers(ws.out));
  const run = spawnCli(['--catalog', bigCatalog, '--out', ws.out, '--quiet', '--jobs', '1']);
  let exited = false;
  void run.done.then(() => (exited = true));
  await waitFor(`the run to be at ${stage}`, async () => {
    if (exited) throw new Error(`the run ended before it was signalled: ${(await run.done).stderr}`);
    for (const t of (await leftovers(ws.out)).filter((f) => f.includes('.tmp-') && !earlier.has(f))) {
      // the parser threads spool into the file's own directory of the work dir (ingest-file.ts)
      const seen = await readdir(path.join(ws.dir, t, ...(stage === 'parse' ? ['.work'] : [])), { recursive: stage === 'parse' }).catch(() => []);
      if (seen.some((f) => (stage === 'parse' ? f.endsWith('.csv') : f === 'rates'))) return true;
    }
    return false;
  });
  return run;
}

describe('a killed or interrupted run leaves the dataset unchanged', () => {
  it('SIGKILL: the dataset unchanged and a temporary directory left; the next run removes it and writes the dataset', async () => {
    const before = await treeHash(ws.out);
    const run = await startBigRun('parse');
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    expect(await treeHash(ws.out)).toEqual(before);
    const stale = await leftovers(ws.out);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatch(/^\.dataset\.tmp-compete-\d+-/);

    // a concurrent run's directory (a live process: this one) is left alone
    const live = path.join(ws.dir, `.dataset.tmp-compete-${process.pid}-live`);
    await mkdir(live);
    await writeFile(path.join(live, '.compete-tmp'), JSON.stringify({ pid: process.pid }));
    // and so is a directory that only looks like ours
    const foreign = path.join(ws.dir, '.dataset.tmp-compete-999999999-foreign');
    await mkdir(foreign);
    await writeFile(path.join(foreign, 'thesis.md'), 'mine\n');

    expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
    expect(await leftovers(ws.out)).toEqual([path.basename(foreign), path.basename(live)].sort());
    expect(JSON.parse(await readFile(path.join(ws.out, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'compete-dataset' });
    await rm(live, { recursive: true });
    await rm(foreign, { recursive: true });
  });

  for (const [signal, code, stage] of [['SIGINT', 130, 'parse'], ['SIGTERM', 143, 'write']] as const) {
    it(`${signal} while it ${stage}s: exit ${code}, one line saying it was interrupted, the dataset unchanged, no temporary directory`, async () => {
      const before = await treeHash(ws.out);
      const run = await startBigRun(stage);
      run.child.kill(signal);
      const r = await run.done;
      expect(r).toEqual({ code, signal: null, stderr: expect.stringMatching(new RegExp(`^convert: interrupted by ${signal}; temporary directory removed, ${re(ws.out)} unchanged\\n$`)) as string });
      expect(await treeHash(ws.out)).toEqual(before);
      expect(await leftovers(ws.out)).toEqual([]);
    });
  }
});

describe('a temporary directory of an earlier boot', () => {
  it.skipIf(!existsSync('/proc/sys/kernel/random/boot_id'))('is stale even when a live process has its pid now', async () => {
    const tmp = path.join(ws.dir, `.dataset.tmp-compete-${process.pid}-reboot`);
    await mkdir(path.join(tmp, '.work'), { recursive: true });
    await writeFile(path.join(tmp, '.compete-tmp'), JSON.stringify({ pid: process.pid, host: hostname(), boot: 'an-earlier-boot' }));
    expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
    expect(await leftovers(ws.out)).toEqual([]);
  });
});

describe('a run killed between the two renames of swapIntoPlace', () => {
  it('--out absent and the set-aside dataset left: the next run restores it before it starts, then replaces it', async () => {
    const before = await treeHash(ws.out);
    const old = path.join(ws.dir, '.dataset.old-compete-999999999-1');
    await rename(ws.out, old);
    // the next run fails on a bad file, after it restored the dataset: the dataset is back unchanged
    await writeFile(path.join(ws.dir, 'garbage.json'), 'hello, world');
    const bad = path.join(ws.dir, 'catalog-garbage.json');
    await writeFile(bad, JSON.stringify({ reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: 'garbage.json' }] }] }));
    const r = await runCli(['--catalog', bad, '--out', ws.out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^convert: .*garbage\.json: .* at byte 0\n$/);
    expect(await treeHash(ws.out)).toEqual(before);
    expect(await leftovers(ws.out)).toEqual([]);
  });

  it('--out present and a set-aside copy left (killed before its removal): the copy is removed', async () => {
    const old = path.join(ws.dir, '.dataset.old-compete-999999999-2');
    await mkdir(old);
    await writeFile(path.join(old, 'manifest.json'), JSON.stringify({ format: 'compete-dataset' }));
    expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
    expect(await leftovers(ws.out)).toEqual([]);
  });
});
