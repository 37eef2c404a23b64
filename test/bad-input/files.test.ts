/**
 * The bad-file corpus, generated here into a temp dir, each file given to the command line as a
 * second insurer's file of a catalog whose first is a good one, over an existing dataset. A file
 * that cannot be read fails the run: exit 1, exactly one stderr line naming the file and the byte
 * offset, the dataset byte for byte unchanged, no temporary directory left. A file the converter
 * tolerates converts, exit 0, with its problem in report.json. Bad catalogs fail the same way with
 * one line naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { body, catalogOf, CLI, cliProcess, HEADER, item, leftovers, makeWorkspace, mrf, price, re, ROOT, runCli, treeHash, type Workspace } from './harness';

let ws: Workspace;
let before: Record<string, string>;

beforeAll(async () => {
  ws = await makeWorkspace('bad-files');
  expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
  before = await treeHash(ws.out);
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/** Writes `bytes` as `name` (unless null), a catalog naming it second, and runs the CLI over the dataset. */
async function convertCase(name: string, bytes: string | Buffer | null): Promise<{ code: number; stderr: string; file: string }> {
  const file = path.join(ws.dir, name);
  if (bytes !== null) await writeFile(file, bytes);
  const catalog = path.join(ws.dir, `catalog-${name}.json`);
  await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], [name])));
  return { ...(await runCli(['--catalog', catalog, '--out', ws.out])), file };
}

/** The run failed cleanly: exit 1, one line, the dataset as it was, no temporary directory. */
async function expectFailed(r: { code: number; stderr: string }, line: RegExp): Promise<void> {
  expect(r.stderr).toMatch(line);
  expect(r.stderr.split('\n')).toHaveLength(2);
  expect(r.code).toBe(1);
  expect(await treeHash(ws.out)).toEqual(before);
  expect(await leftovers(ws.out)).toEqual([]);
}

/** The run converted: exit 0, nothing on stderr; returns the problems of `name` in report.json (the dataset is then the new one). */
async function expectConverted(r: { code: number; stderr: string }, name: string): Promise<ConversionReport['problems']> {
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(await leftovers(ws.out)).toEqual([]);
  const report = JSON.parse(await readFile(path.join(ws.out, 'report.json'), 'utf8')) as ConversionReport;
  const manifest = JSON.parse(await readFile(path.join(ws.out, 'manifest.json'), 'utf8')) as { sources: Array<{ url: string; rate_rows: number }> };
  expect(manifest.sources.map((s) => s.url)).toEqual(['good.json', name]);
  expect(manifest.sources[1]!.rate_rows).toBeGreaterThan(0);
  // the next case compares against this dataset
  before = await treeHash(ws.out);
  return report.problems.filter((p) => p.file === name);
}

const GOOD = mrf();
const gz = gzipSync(Buffer.from(GOOD));

describe('a file that cannot be read: exit 1, one line naming the file and byte offset, the dataset unchanged', () => {
  const crc = Buffer.from(gz);
  crc[crc.length - 8]! ^= 0xff; // the CRC-32 of the gzip trailer
  const nul = `${HEADER}${body([item('"99214"', price('12'))])}`;
  // between two root keys, where the root's structure breaks (between two elements of an array
  // they are skipped and reported: reader-sync.test.ts)
  const nulAt = nul.indexOf('"provider_references"');
  const utf16 = (enc: 'utf16le' | 'utf16be'): Buffer => {
    const le = Buffer.from(`\uFEFF${GOOD}`, 'utf16le');
    return enc === 'utf16le' ? le : Buffer.from(le).swap16();
  };
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['empty.json', '', /^convert: .*empty\.json: empty file at byte 0\n$/],
    ['garbage.json', 'hello, world', /^convert: .*garbage\.json: .*at byte 0\n$/],
    ['truncated.json', GOOD.slice(0, 300), /^convert: .*truncated\.json: .*at byte 300\n$/],
    ['truncated.json.gz', gz.subarray(0, gz.length - 20), /^convert: .*truncated\.json\.gz: truncated gzip stream.* at byte \d+\n$/],
    // zlib checks the CRC after the last byte and gives no data of a chunk that fails: the offset is
    // the decompressed bytes read before that chunk (openContainer), 0 for a file of one chunk
    ['bad-crc.json.gz', crc, /^convert: .*bad-crc\.json\.gz: corrupt gzip stream \(incorrect data check\) at byte 0\n$/],
    ['nul-bytes.json', nul.slice(0, nulAt) + '\0\0\0\0' + nul.slice(nulAt), new RegExp(`^convert: .*nul-bytes\\.json: .* at byte ${nulAt}\\n$`)],
    ['utf16le.json', utf16('utf16le'), /^convert: .*utf16le\.json: .*UTF-16 ?LE.* at byte 0\n$/i],
    ['utf16be.json', utf16('utf16be'), /^convert: .*utf16be\.json: .*UTF-16 ?BE.* at byte 0\n$/i],
    ['array-root.json', '[]', /^convert: .*array-root\.json: .* at byte 0\n$/],
  ];
  for (const [name, bytes, line] of cases) {
    it(name, async () => {
      await expectFailed(await convertCase(name, bytes), line);
    });
  }

  it('gzip with trailing garbage after the stream', async () => {
    const r = await convertCase('trailing.json.gz', Buffer.concat([gz, Buffer.from('this is not gzip\n')]));
    // zlib reads the garbage as a second gzip member with a bad header (offset: as for a bad CRC)
    await expectFailed(r, /^convert: .*trailing\.json\.gz: corrupt gzip stream \(incorrect header check\) at byte 0\n$/);
  });

  it('a gzip bomb of zeros (~200 MB in ~200 KB) fails at byte 0, its first byte', async () => {
    const file = path.join(ws.dir, 'bomb.json.gz');
    const z = createGzip({ level: 9 });
    const w = z.pipe(createWriteStream(file));
    const mb = Buffer.alloc(1 << 20);
    for (let k = 0; k < 200; k++) if (!z.write(mb)) await once(z, 'drain');
    z.end();
    await once(w, 'close');
    const r = await convertCase('bomb.json.gz', null);
    await expectFailed(r, /^convert: .*bomb\.json\.gz: .* at byte 0\n$/);
  });

  it('a directory given as url', async () => {
    const dir = path.join(ws.dir, 'a-directory.json');
    await mkdir(dir);
    await expectFailed(await convertCase('a-directory.json', null), new RegExp(`^convert: ${re(dir)}: .*director.* at byte 0\\n$`, 'i'));
  });

  it('a missing file', async () => {
    await expectFailed(await convertCase('missing.json', null), new RegExp(`^convert: ${re(path.join(ws.dir, 'missing.json'))}: cannot open .* at byte 0\\n$`));
  });
});

describe('a file the converter tolerates: exit 0, the dataset written, report.json says what', () => {
  it('a UTF-8 byte order mark before the root object converts', async () => {
    const problems = await expectConverted(await convertCase('bom.json', `\uFEFF${GOOD}`), 'bom.json');
    // the BOM is not an error in a JSON text read as UTF-8 (RFC 8259 §8.1 allows a parser to ignore it)
    expect(problems.filter((p) => p.code !== 'utf8_bom')).toEqual([]);
  });

  it('a gzipped file with a UTF-8 byte order mark converts', async () => {
    await expectConverted(await convertCase('bom.json.gz', gzipSync(Buffer.from(`\uFEFF${GOOD}`))), 'bom.json.gz');
  });

  it('unknown enum values are rejected into report.json with their JSON path', async () => {
    const problems = await expectConverted(await convertCase('unknown-enum.json', mrf([item('"99214"', price('12', 'Capitated'))])), 'unknown-enum.json');
    expect(problems.map((p) => [p.code, p.path])).toEqual([['unknown_enum', '$.in_network[1].negotiated_rates[0].negotiated_prices[0].negotiated_type']]);
  });

  it('128 MB of spaces inside the root object stream in bounded memory', async () => {
    // a valid file: the header, then 128 MB of white space between two root keys, then the rest
    const file = path.join(ws.dir, 'spaces.json.gz');
    const z = createGzip({ level: 9 });
    const w = z.pipe(createWriteStream(file));
    z.write(HEADER);
    const mb = Buffer.alloc(1 << 20, 0x20);
    for (let k = 0; k < 128; k++) if (!z.write(mb)) await once(z, 'drain');
    z.end(body());
    await once(w, 'close');
    const catalog = path.join(ws.dir, 'catalog-spaces.json');
    await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], ['spaces.json.gz'])));
    const small = await rssRun(['--catalog', ws.catalog, '--out', path.join(ws.dir, 'rss-small'), '--quiet', '--jobs', '1']);
    const big = await rssRun(['--catalog', catalog, '--out', path.join(ws.dir, 'rss-spaces'), '--quiet', '--jobs', '1']);
    expect([small.code, small.stderr, big.code, big.stderr]).toEqual([0, '', 0, '']);
    // 128 MB held as a Buffer (or twice that as a string) would show; streaming adds a few MB
    expect(big.maxRssMb - small.maxRssMb).toBeLessThan(64);
  });
});

/** Runs the CLI in a process of its own; returns its exit code, stderr and peak resident memory. */
async function rssRun(args: string[]): Promise<{ code: number | null; stderr: string; maxRssMb: number }> {
  const code = `const { runConvertCli } = await import(${JSON.stringify(CLI)});
    const code = await runConvertCli(JSON.parse(process.env.COMPETE_ARGS));
    process.stdout.write(String(process.resourceUsage().maxRSS));
    process.exit(code);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT, env: { ...process.env, COMPETE_ARGS: JSON.stringify(args) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
  const [exit] = (await once(child, 'close')) as [number | null];
  return { code: exit, stderr, maxRssMb: Number(stdout) / 1024 };
}

describe('a bad catalog: exit 1, one line naming the field, the dataset unchanged', () => {
  const valid = catalogOf(['good.json']) as { reference_insurer: string; insurers: Array<Record<string, unknown>> };
  const cases: Array<[string, string | object | null, RegExp]> = [
    ['not-json', '{"reference_insurer": "good",', /: not valid JSON \(.*\)\n$/],
    ['missing-reference', { insurers: valid.insurers }, /: missing required field reference_insurer\n$/],
    ['missing-insurers', { reference_insurer: 'good' }, /: missing required field insurers\n$/],
    ['file-without-url', { ...valid, insurers: [{ id: 'good', name: 'Good', files: [{ snapshot: '2025-07' }] }] }, /: missing required field insurers\[0\]\.files\[0\]\.url\n$/],
    ['unknown-reference', { ...valid, reference_insurer: 'nobody' }, /: reference_insurer nobody is not among insurers\[\]\.id\n$/],
    ['missing-file', null, /: cannot read catalog \(ENOENT: no such file or directory, open '.*'\)\n$/],
    ['bad-filter-states', { ...valid, filters: { states: ['New York'] } }, /: field filters\.states\[0\] must match pattern .*\n$/],
    ['bad-filter-codes', { ...valid, filters: { billing_codes: 99213 } }, /: field filters\.billing_codes must be string\n$/],
    ['bad-filters', { ...valid, filters: 'CA' }, /: field filters must be object\n$/],
    ['missing-filter-file', { ...valid, filters: { billing_codes: 'codes.txt' } }, /: filters\.billing_codes .*codes\.txt: cannot open \(ENOENT.*\)\n$/],
  ];
  for (const [name, json, tail] of cases) {
    it(name, async () => {
      const catalog = path.join(ws.dir, `bad-catalog-${name}.json`);
      if (json !== null) await writeFile(catalog, typeof json === 'string' ? json : JSON.stringify(json));
      const r = await runCli(['--catalog', catalog, '--out', ws.out]);
      await expectFailed(r, new RegExp(`^convert: ${re(catalog)}${tail.source}`));
    });
  }
});

describe('the real command line process', () => {
  it('exits 1 with one line naming the file and offset over the dataset, then 0 once the file is good', async () => {
    await writeFile(path.join(ws.dir, 'garbage-process.json'), 'hello, world');
    const catalog = path.join(ws.dir, 'catalog-garbage-process.json');
    await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], ['garbage-process.json'])));
    const bad = await cliProcess(['--catalog', catalog, '--out', ws.out, '--quiet']);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/^convert: .*garbage-process\.json: not JSON.* at byte 0\n$/) as string]);
    expect(await treeHash(ws.out)).toEqual(before);
    const ok = await cliProcess(['--catalog', ws.catalog, '--out', ws.out, '--quiet']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    before = await treeHash(ws.out);
  });
});
