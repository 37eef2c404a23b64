/**
 * Measures the reader's single-thread throughput in MB/s of uncompressed JSON (1 MB = 10^6 bytes),
 * stage by stage: decompression alone (open-container.ts), + root scanner (splitting), + full read
 * through the converter's path on this thread (read-in-process.ts: readSource, then every element
 * parsed and spooled as a parser thread does, the fast path or, with `--slow`, JSON.parse and the
 * normalisers), into spool files in a temp dir deleted after each run. Best of `--runs` (default 3).
 * It lives beside the converter's commands because the full read is the converter's: the reader
 * (scripts/mrf/) imports nothing of the converter.
 * Usage: `npx tsx scripts/convert/cli/measure-read.ts [--runs N] [--slow] <file.json[.gz]>...`
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openContainer } from '../../mrf/open-container';
import { RootScanner, type ScanEvent } from '../../mrf/root-scanner';
import { readInProcess, removeSpool } from '../ingest/read-in-process';

/** The stored bytes of `file` in 1 MiB chunks, as the converter streams a local file (open-sources.ts). */
const stream = (file: string): AsyncIterable<Buffer> => createReadStream(file, { highWaterMark: 1 << 20 });

/** Decompresses `file` (open-container.ts); returns its JSON bytes. */
async function decompressOnly(file: string): Promise<number> {
  let bytes = 0;
  for await (const c of openContainer(file, stream(file))) bytes += c.length;
  return bytes;
}

/** Decompresses `file` and cuts its root elements (root-scanner.ts); returns its JSON bytes. */
async function splitOnly(file: string): Promise<number> {
  const scanner = new RootScanner(file, () => true);
  const out: ScanEvent[] = [];
  for await (const c of openContainer(file, stream(file))) {
    scanner.push(c, out);
    out.length = 0;
  }
  scanner.finish();
  return scanner.bytes;
}

/** The full read of `file` on this thread; the spool's temp dir is made and deleted inside the timing. */
function fullRead(slow: boolean): (file: string) => Promise<number> {
  return async (file) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-measure-read-'));
    try {
      const read = await readInProcess(file, stream(file), { dir, slow });
      await removeSpool(read.done);
      if (read.fatal) throw read.fatal;
      return read.result!.jsonBytes;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** Runs `fn` on `file` `runs` times: the best run's MB/s of JSON, and the JSON bytes. */
async function best(fn: (p: string) => Promise<number>, file: string, runs: number): Promise<{ mbps: number; bytes: number }> {
  let bestS = Infinity;
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    bytes = await fn(file);
    bestS = Math.min(bestS, (performance.now() - t) / 1000);
  }
  return { mbps: bytes / 1e6 / bestS, bytes };
}

async function main(argv: string[]): Promise<void> {
  let runs = 3;
  let slow = false;
  const files: string[] = [];
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--runs') runs = Number(argv[++k]);
    else if (argv[k] === '--slow') slow = true;
    else files.push(argv[k]!);
  }
  for (const f of files) {
    const d = await best(decompressOnly, f, runs);
    const s = await best(splitOnly, f, runs);
    const r = await best(fullRead(slow), f, runs);
    const mb = (x: number): string => x.toFixed(0).padStart(5);
    console.log(`${f}: ${(d.bytes / 1e6).toFixed(1)} MB JSON | decompress ${mb(d.mbps)} MB/s | +split ${mb(s.mbps)} MB/s | full read${slow ? ' (slow path)' : ''} ${mb(r.mbps)} MB/s`);
  }
}

await main(process.argv.slice(2));
