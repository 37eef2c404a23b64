/**
 * Measures the reader's single-thread throughput in MB/s of uncompressed JSON (1 MB = 10^6 bytes),
 * stage by stage: decompression alone, + root scanner (splitting), + full read (JSON.parse and
 * normalisation of every element, into a counting sink). Best of `--runs` (default 3).
 * Usage: `npx tsx scripts/mrf/measure-read.ts [--runs N] <file.json[.gz]>...`
 */
import { createReadStream } from 'node:fs';
import { openContainer } from './open-container.js';
import { readInNetworkFile } from './read-in-network.js';
import { RootScanner, type ScanEvent } from './root-scanner.js';
import type { MrfSink } from './types.js';

async function decompressOnly(path: string): Promise<number> {
  let bytes = 0;
  for await (const c of openContainer(path, createReadStream(path, { highWaterMark: 1 << 20 }))) bytes += c.length;
  return bytes;
}

async function splitOnly(path: string): Promise<number> {
  const scanner = new RootScanner(path, () => true);
  const out: ScanEvent[] = [];
  for await (const c of openContainer(path, createReadStream(path, { highWaterMark: 1 << 20 }))) {
    scanner.push(c, out);
    out.length = 0;
  }
  scanner.finish();
  return scanner.bytes;
}

async function fullRead(path: string): Promise<number> {
  let prices = 0;
  const sink: MrfSink = {
    header: () => undefined,
    providerReference: () => undefined,
    inNetworkItem: (it) => {
      for (const r of it.negotiated_rates) prices += r.prices.length;
    },
    problem: () => undefined,
  };
  const result = await readInNetworkFile(path, sink);
  if (prices < 0) throw new Error("unreachable"); // keeps the sink work observable
  return result.jsonBytes;
}

async function best(fn: (p: string) => Promise<number>, path: string, runs: number): Promise<{ mbps: number; bytes: number }> {
  let bestS = Infinity;
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    bytes = await fn(path);
    bestS = Math.min(bestS, (performance.now() - t) / 1000);
  }
  return { mbps: bytes / 1e6 / bestS, bytes };
}

async function main(argv: string[]): Promise<void> {
  let runs = 3;
  const files: string[] = [];
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--runs') runs = Number(argv[++k]);
    else files.push(argv[k]!);
  }
  for (const f of files) {
    const d = await best(decompressOnly, f, runs);
    const s = await best(splitOnly, f, runs);
    const r = await best(fullRead, f, runs);
    const mb = (x: number): string => x.toFixed(0).padStart(5);
    console.log(`${f}: ${(d.bytes / 1e6).toFixed(1)} MB JSON | decompress ${mb(d.mbps)} MB/s | +split ${mb(s.mbps)} MB/s | full read ${mb(r.mbps)} MB/s`);
  }
}

await main(process.argv.slice(2));
