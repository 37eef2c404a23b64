/**
 * 7z containers (docs/converter.md, What it reads: Evry Health publishes `.7z`), recognised by their
 * signature 37 7a bc af 27 1c whatever the name, and read with the 7-Zip binary of `7zip-bin` run
 * from a cached executable copy (scripts/mrf/seven-zip.ts). The archives are packed by that binary
 * (seven-zip-helpers.ts build7z); the early-stop checks look for 7za children in /proc (Linux).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { path7za } from '7zip-bin';
import { open7zArchive, openContainer, sniffContainer } from '../../scripts/mrf/open-container';
import { installSevenZip, parseListing, sevenZipBinary } from '../../scripts/mrf/seven-zip';
import { MrfReadError } from '../../scripts/mrf/types';
import { buildZip, chunked } from './mrf-test-helpers';
import { expectSameRead, readBytes } from './reader-helpers';
import { build7z } from './seven-zip-helpers';

const JSON_TEXT = `{"reporting_entity_name":"7z Plan","reporting_entity_type":"issuer","last_updated_on":"2025-05-01","version":"1.0.0",
"provider_references":[{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}],
"in_network":[{"negotiation_arrangement":"ffs","name":"Visit","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"99213",
"description":"d","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[{"negotiated_type":"negotiated","negotiated_rate":99.5,
"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}]}]}]}`;
const PLAIN = Buffer.from(JSON_TEXT);
/** ~2 MB once extracted: far more than a pipe holds, so 7za is still writing when a reader stops. */
const LARGE = Buffer.from(`{"in_network":[${Array.from({ length: 200_000 }, (_, i) => `{"n":${i}}`).join(',')}]}`);

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-7z-test-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function collect(input: Buffer, o: { notes?: Array<[string, string]>; tmpDir?: string } = {}): Promise<Buffer> {
  const out: Buffer[] = [];
  const options = { tmpDir: o.tmpDir ?? tmp, onNote: (m: string, code: string) => void o.notes?.push([code, m]) };
  for await (const c of openContainer('in-network.bin', chunked(input, 5) as AsyncIterable<Buffer>, options)) out.push(c);
  return Buffer.concat(out);
}

async function failure(input: Buffer): Promise<MrfReadError> {
  const err = await collect(input).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(MrfReadError);
  return err as MrfReadError;
}

/** The 7za processes this test process started that still exist (running or zombie), from /proc. */
function sevenZipChildren(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // `pid (comm) state ppid ...`; comm may hold spaces, so read after its closing parenthesis
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (comm === '7za' && ppid === process.pid) found.push(Number(pid));
  }
  return found;
}

describe('the 7-Zip binary', () => {
  it('is copied once into a cache directory, executable, and reused', async () => {
    const root = await mkdtemp(path.join(tmp, 'cache-'));
    const first = await installSevenZip(root);
    expect(path.dirname(first)).toMatch(/compete-7za-\d+-[0-9a-f]{12}$/);
    expect(path.dirname(path.dirname(first))).toBe(root);
    expect((await stat(first)).mode & 0o111).not.toBe(0);
    expect((await readFile(first)).equals(await readFile(path7za))).toBe(true);
    const { ino, mtimeMs } = await stat(first);
    const again = await installSevenZip(root);
    expect(again).toBe(first);
    // the same file, not a new copy
    expect(await stat(again)).toMatchObject({ ino, mtimeMs });
    // and it runs
    const { stdout } = await promisify(execFile)(again, ['i']);
    expect(stdout).toMatch(/7-Zip .*16\.02/);
  });

  it('writes the copy again when it is not the package binary, and leaves no temporary file', async () => {
    const root = await mkdtemp(path.join(tmp, 'cache-'));
    const bin = await installSevenZip(root);
    await writeFile(bin, 'not 7-Zip');
    expect(await installSevenZip(root)).toBe(bin);
    expect((await readFile(bin)).equals(await readFile(path7za))).toBe(true);
    expect((await stat(bin)).mode & 0o777).toBe(0o755);
    expect(await readdir(path.dirname(bin))).toEqual([path.basename(bin)]);
  });

  it('refuses a cache directory others can write to', async () => {
    const root = await mkdtemp(path.join(tmp, 'cache-'));
    const bin = await installSevenZip(root);
    await chmod(path.dirname(bin), 0o777);
    await expect(installSevenZip(root)).rejects.toThrow(/unsafe 7-Zip cache directory/);
  });

  it('says so clearly when the package has no binary for the platform', async () => {
    await expect(installSevenZip(tmp, path.join(tmp, 'no-such-platform', '7za'))).rejects.toThrow(/7zip-bin has no 7-Zip binary for \w+\/\w+/);
  });

  it('sevenZipBinary gives the same cached path on every call, under the system temp dir', async () => {
    const a = await sevenZipBinary();
    expect(await sevenZipBinary()).toBe(a);
    expect(path.dirname(path.dirname(a))).toBe(os.tmpdir());
    expect((await stat(a)).mode & 0o111).not.toBe(0);
  });
});

describe('7za listings', () => {
  it('reads entries, sizes, folders (16.02 and later attribute forms) and encryption', () => {
    const text = [
      'Path = plans', 'Size = 0', 'Attributes = D_ drwxr-xr-x', 'Encrypted = -', '',
      'Path = plans/a b.json', 'Size = 123', 'Packed Size = ', 'Attributes = A_ -rw-r--r--', 'Encrypted = -', '',
      'Path = x = y.json', 'Size = 7', 'Attributes = ....A', 'Encrypted = +', '',
      'Path = dir2', 'Size = ', 'Attributes = D....', '',
    ].join('\n');
    expect(parseListing(text)).toEqual([
      { name: 'plans', size: 0, folder: true, encrypted: false },
      { name: 'plans/a b.json', size: 123, folder: false, encrypted: false },
      { name: 'x = y.json', size: 7, folder: false, encrypted: true },
      { name: 'dir2', size: 0, folder: true, encrypted: false },
    ]);
  });
});

describe('7z containers', () => {
  it('are recognised by their signature', () => {
    expect(sniffContainer('x', Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))).toBe('7z');
    // the xz signature, which shares 37 7a, stays refused
    expect(() => sniffContainer('x', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]))).toThrow(/xz compression is not supported/);
  });

  it('reads the .json entry of a 7z, the other entries noted with the 7z code', async () => {
    const notes: Array<[string, string]> = [];
    const seven = await build7z(tmp, [{ name: 'README.txt', data: Buffer.from('hello') }, { name: 'rates/in-network.JSON', data: PLAIN }]);
    expect((await collect(seven, { notes })).equals(PLAIN)).toBe(true);
    expect(notes).toEqual([['7z_entries_ignored', '7z entry rates/in-network.JSON read; 1 other entries ignored (README.txt)']]);
  });

  it('reads a gzip inside a 7z, a lone entry whatever its name, and a name that is not ASCII', async () => {
    expect((await collect(await build7z(tmp, [{ name: 'x.json.gz', data: gzipSync(PLAIN) }]))).equals(PLAIN)).toBe(true);
    expect((await collect(await build7z(tmp, [{ name: 'data', data: PLAIN }]))).equals(PLAIN)).toBe(true);
    const accented = await build7z(tmp, [{ name: 'plän é.json', data: PLAIN }, { name: 'notes.txt', data: Buffer.from('n') }]);
    // in the C locale too: 7za reads a name on its command line in the locale's charset, and the list file as UTF-8
    const locale = process.env.LC_ALL;
    process.env.LC_ALL = 'C';
    try {
      const notes: Array<[string, string]> = [];
      expect((await collect(accented, { notes })).equals(PLAIN)).toBe(true);
      expect(notes).toEqual([['7z_entries_ignored', '7z entry plän é.json read; 1 other entries ignored (notes.txt)']]);
    } finally {
      if (locale === undefined) delete process.env.LC_ALL;
      else process.env.LC_ALL = locale;
    }
  });

  it('the converter\'s reading path gives the same rows for the 7z as for the plain file', async () => {
    const plain = await readBytes(PLAIN, 11);
    const packed = await readBytes(await build7z(tmp, [{ name: 'f.json', data: PLAIN }]), 11);
    expect(plain.items).toHaveLength(1);
    expectSameRead({ ...packed, totals: null }, { ...plain, totals: null });
    expect(packed.totals?.items).toBe(1);
    expect(packed.totals?.jsonBytes).toBe(PLAIN.length);
  });

  it('refuses a truncated 7z, garbage after the signature, a 7z without a JSON entry, an encrypted entry: offset 0, clear reason', async () => {
    const good = await build7z(tmp, [{ name: 'f.json', data: PLAIN }]);
    const cases: Array<[Buffer, RegExp]> = [
      [good.subarray(0, good.length - 40), /^corrupt 7z archive \(.*Unexpected end of archive.*\)$/],
      [good.subarray(0, 32), /^corrupt 7z archive \(/],
      [Buffer.concat([good.subarray(0, 6), Buffer.from('this is not a 7z archive at all, only its first six bytes are')]), /^corrupt 7z archive \(/],
      [await build7z(tmp, [{ name: 'a.txt', data: Buffer.from('a') }, { name: 'b.csv', data: Buffer.from('b') }]), /^7z archive holds no \.json entry \(2 entries\)$/],
      [await build7z(tmp, [{ name: 'f.json', data: PLAIN }], ['-psecret']), /^7z entry f\.json is encrypted$/],
      [await build7z(tmp, [{ name: 'f.json', data: PLAIN }], ['-psecret', '-mhe=on']), /^encrypted 7z archive \(/],
    ];
    for (const [bytes, reason] of cases) {
      const err = await failure(bytes);
      expect(err.file).toBe('in-network.bin');
      expect(err.offset).toBe(0);
      expect(err.reason).toMatch(reason);
    }
  });

  it('refuses an archive inside an archive: a 7z in a zip, a zip in a 7z, a 7z in a 7z', async () => {
    const inner7z = await build7z(tmp, [{ name: 'x.json', data: PLAIN }]);
    const cases: Array<[Buffer, string]> = [
      [buildZip([{ name: 'inner.json', data: inner7z }]), 'a 7z archive inside a zip archive is not supported'],
      [await build7z(tmp, [{ name: 'inner.json', data: buildZip([{ name: 'x.json', data: PLAIN }]) }]), 'a zip archive inside a 7z archive is not supported'],
      [await build7z(tmp, [{ name: 'inner.json', data: inner7z }]), 'a 7z archive inside a 7z archive is not supported'],
    ];
    for (const [bytes, reason] of cases) expect((await failure(bytes)).reason).toBe(reason);
  });

  it.skipIf(process.platform !== 'linux')('a reader that stops early ends 7za and leaves no temporary directory', async () => {
    const spool = await mkdtemp(path.join(tmp, 'spool-'));
    const seven = await build7z(tmp, [{ name: 'large.json', data: LARGE }]);
    let first = 0;
    for await (const c of openContainer('large.7z', chunked(seven, 1 << 16) as AsyncIterable<Buffer>, { tmpDir: spool })) {
      first = c.length;
      expect(sevenZipChildren()).toHaveLength(1);
      break;
    }
    expect(first).toBeGreaterThan(0);
    expect(sevenZipChildren()).toEqual([]);
    expect(await readdir(spool)).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('close() ends an extraction its reader left half read, then deletes the copy', async () => {
    const spool = await mkdtemp(path.join(tmp, 'spool-'));
    const seven = await build7z(tmp, [{ name: 'large.json', data: LARGE }, { name: 'small.json', data: PLAIN }]);
    const archive = await open7zArchive('large.7z', chunked(seven, 1 << 16) as AsyncIterable<Buffer>, spool);
    expect(archive.kind).toBe('7z');
    expect(archive.json).toEqual(expect.arrayContaining([{ name: 'large.json', size: LARGE.length }, { name: 'small.json', size: PLAIN.length }]));
    const reader = archive.open('large.json');
    expect((await reader.next()).done).toBe(false);
    expect(sevenZipChildren()).toHaveLength(1);
    await archive.close();
    expect(sevenZipChildren()).toEqual([]);
    expect(await readdir(spool)).toEqual([]);
    // what the reader sees next: an error naming the archive and the entry
    await expect(drain(reader)).rejects.toThrow('large.7z: 7z archive closed while entry large.json was read at byte 0');
  });

  it('reads a whole entry of ~2 MB streamed, byte for byte', async () => {
    const got = await collect(await build7z(tmp, [{ name: 'large.json', data: LARGE }]));
    expect(got.length).toBe(LARGE.length);
    expect(got.equals(LARGE)).toBe(true);
  });
});

async function drain(g: AsyncGenerator<Buffer>): Promise<number> {
  let n = 0;
  for await (const c of g) n += c.length;
  return n;
}
