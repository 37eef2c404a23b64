/**
 * Archive entries are verified as gzip streams are: a zip entry's bytes against the CRC-32 and
 * uncompressed size of its central directory record (scripts/mrf/zip-entry-check.ts), stored and
 * deflated alike, a 7z entry's by 7za, whose CRC error fails the entry even once its bytes are out.
 * The zips are built by hand (mrf-test-helpers.ts buildZip) and patched here; the 7z archives are
 * packed by the converter's 7za (seven-zip-helpers.ts build7z), then a byte of their data flipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { openArchive, openContainer } from '../../scripts/mrf/open-container';
import { MrfReadError } from '../../scripts/mrf/types';
import { checkedZipEntry, createCrc32 } from '../../scripts/mrf/zip-entry-check';
import { buildZip, chunked, corruptDigit } from './mrf-test-helpers';
import { build7z } from './seven-zip-helpers';

const JSON_TEXT = `{"reporting_entity_name":"CRC Plan","reporting_entity_type":"issuer","last_updated_on":"2025-05-01","version":"1.0.0",
"provider_references":[{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}],
"in_network":[{"negotiation_arrangement":"ffs","name":"Visit","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"99213",
"description":"d","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[{"negotiated_type":"negotiated","negotiated_rate":131.38,
"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}]}]}]}`;
const PLAIN = Buffer.from(JSON_TEXT);

const CORRUPT = corruptDigit(PLAIN);
const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

/**
 * Overwrites, in both the local header and the central directory record of entry `name` of the
 * buildZip archive `zip` (no comment, no extra fields), the CRC-32 and/or the uncompressed size.
 */
function patchZip(zip: Buffer, name: string, patch: { crc?: number; size?: number }): Buffer {
  const out = Buffer.from(zip);
  const end = out.length - 22;
  const count = out.readUInt16LE(end + 10);
  let at = out.readUInt32LE(end + 16);
  for (let k = 0; k < count; k++) {
    const nameLength = out.readUInt16LE(at + 28);
    if (out.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const local = out.readUInt32LE(at + 42);
      if (patch.crc !== undefined) {
        out.writeUInt32LE(patch.crc >>> 0, at + 16);
        out.writeUInt32LE(patch.crc >>> 0, local + 14);
      }
      if (patch.size !== undefined) {
        out.writeUInt32LE(patch.size, at + 24);
        out.writeUInt32LE(patch.size, local + 22);
      }
      return out;
    }
    at += 46 + nameLength;
  }
  throw new Error(`no entry ${name}`);
}

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-archive-crc-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function collect(input: Buffer, name = 'plan.zip'): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of openContainer(name, chunked(input, 7) as AsyncIterable<Buffer>, { tmpDir: tmp })) out.push(c);
  return Buffer.concat(out);
}

async function failure(input: Buffer, name = 'plan.zip'): Promise<MrfReadError> {
  const err = await collect(input, name).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(MrfReadError);
  return err as MrfReadError;
}

/** Reads entry `name` of archive `bytes` through openArchive: the bytes yielded, and the error that ended the read (null when none). */
async function readEntry(kind: 'zip' | '7z', bytes: Buffer, name: string): Promise<{ yielded: number; err: MrfReadError | null }> {
  const archive = await openArchive(kind, `plan.${kind}`, chunked(bytes, 1 << 16) as AsyncIterable<Buffer>, tmp);
  let yielded = 0;
  try {
    for await (const c of archive.open(name)) yielded += c.length;
    return { yielded, err: null };
  } catch (e) {
    expect(e).toBeInstanceOf(MrfReadError);
    return { yielded, err: e as MrfReadError };
  } finally {
    await archive.close();
  }
}

const crcReason = (entry: string, actual: Buffer, expected: Buffer | number): string =>
  `corrupt zip archive (entry ${entry}: bad CRC-32 ${hex(crc32(actual))}, the central directory says ${hex(typeof expected === 'number' ? expected : crc32(expected))})`;

describe('zip entries are checked against the CRC-32 of their central directory record', () => {
  it('a corrupted digit in a stored entry (131.38 -> 931.38) fails the entry, naming archive, entry and both CRCs', async () => {
    const zip = buildZip([{ name: 'README.txt', data: Buffer.from('hello') }, { name: 'rates/in-network.json', data: PLAIN }]);
    expect((await collect(zip)).equals(PLAIN)).toBe(true);
    const err = await failure(corruptDigit(zip));
    expect(err.file).toBe('plan.zip');
    expect(err.offset).toBe(0);
    expect(err.reason).toBe(crcReason('rates/in-network.json', CORRUPT, PLAIN));
    expect(err.message).toBe(`plan.zip: ${err.reason} at byte 0`);
  });

  it('a deflated entry whose deflate stream is valid but whose bytes are not those of the CRC fails alike', async () => {
    const zip = patchZip(buildZip([{ name: 'f.json', data: CORRUPT, deflate: true }]), 'f.json', { crc: crc32(PLAIN) });
    expect((await failure(zip)).reason).toBe(crcReason('f.json', CORRUPT, PLAIN));
  });

  it('a .json.gz entry is checked by the zip CRC before its gzip is trusted', async () => {
    const gz = gzipSync(PLAIN);
    const wrong = (crc32(gz) ^ 1) >>> 0;
    const zip = patchZip(buildZip([{ name: 'x.json.gz', data: gz }]), 'x.json.gz', { crc: wrong });
    expect((await failure(zip)).reason).toBe(crcReason('x.json.gz', gz, wrong));
  });

  it('fails only the corrupt entry of a bundle, after its bytes have streamed; the other entries read', async () => {
    const other = Buffer.from(JSON_TEXT.replace('99213', '99214'));
    const zip = corruptDigit(buildZip([{ name: 'a.json', data: PLAIN }, { name: 'b.json', data: other, deflate: true }]));
    const a = await readEntry('zip', zip, 'a.json');
    expect(a.yielded).toBe(PLAIN.length);
    expect(a.err?.reason).toBe(crcReason('a.json', CORRUPT, PLAIN));
    expect(await readEntry('zip', zip, 'b.json')).toEqual({ yielded: other.length, err: null });
  });

  it('an uncompressed size that is not the central directory record fails the entry, naming it; a stored one fails the archive', async () => {
    const deflated = patchZip(buildZip([{ name: 'f.json', data: PLAIN, deflate: true }]), 'f.json', { size: PLAIN.length + 1 });
    expect((await failure(deflated)).reason).toMatch(/^corrupt zip archive \(entry f\.json: .*bytes.*\)$/);
    // a stored entry whose two sizes differ is refused by yauzl as it reads the directory, before any entry is opened
    const stored = patchZip(buildZip([{ name: 'f.json', data: PLAIN }]), 'f.json', { size: PLAIN.length - 1 });
    expect((await failure(stored)).reason).toMatch(/^corrupt zip archive \(.*size mismatch for stored file.*\)$/);
  });

  it('checkedZipEntry checks the size itself, and passes the bytes of a good entry through unchanged', async () => {
    const read = async (entry: { crc32: number; uncompressedSize: number }): Promise<Buffer> => {
      const out: Buffer[] = [];
      for await (const c of checkedZipEntry('a.zip', { name: 'e.json', ...entry }, chunked(PLAIN, 10) as AsyncIterable<Buffer>)) out.push(c);
      return Buffer.concat(out);
    };
    expect((await read({ crc32: crc32(PLAIN), uncompressedSize: PLAIN.length })).equals(PLAIN)).toBe(true);
    await expect(read({ crc32: crc32(PLAIN), uncompressedSize: PLAIN.length + 5 })).rejects.toThrow(
      `a.zip: corrupt zip archive (entry e.json: ${PLAIN.length} bytes extracted, ${PLAIN.length + 5} in the central directory) at byte 0`,
    );
  });

  it('the CRC-32 of zlib and of the hash-wasm fallback agree, chunk by chunk', async () => {
    for (const native of [true, false]) {
      const c = await createCrc32(native);
      expect(c.digest()).toBe(0);
      for (let k = 0; k < PLAIN.length; k += 13) c.update(PLAIN.subarray(k, k + 13));
      expect(c.digest()).toBe(crc32(PLAIN));
    }
  });
});

describe('7z entries whose CRC 7za finds wrong', () => {
  /** ~400 KB: more than a pipe holds, so most of the entry is out before 7za exits. */
  const LARGE = Buffer.from(JSON_TEXT.replace('"in_network":[', `"in_network":[${Array.from({ length: 20_000 }, (_, i) => `{"n":${i}}`).join(',')},`));

  it('a corrupted digit in a stored (-mx0) entry fails it naming archive and entry, though every byte was streamed', async () => {
    const seven = corruptDigit(await build7z(tmp, [{ name: 'in-network.json', data: LARGE }], ['-mx0']));
    const { yielded, err } = await readEntry('7z', seven, 'in-network.json');
    expect(yielded).toBe(LARGE.length);
    expect(err?.message).toBe('plan.7z: corrupt 7z archive (entry in-network.json: CRC Failed) at byte 0');
    const whole = await failure(seven, 'plan.7z');
    expect([whole.file, whole.offset, whole.reason]).toEqual(['plan.7z', 0, 'corrupt 7z archive (entry in-network.json: CRC Failed)']);
  });

  it('a flipped byte in LZMA data fails the entry naming archive and entry', async () => {
    const seven = await build7z(tmp, [{ name: 'in-network.json', data: LARGE }]);
    const bad = Buffer.from(seven);
    bad[32 + 200]! ^= 0x10; // inside the packed stream, which starts after the 32-byte signature header
    const { err } = await readEntry('7z', bad, 'in-network.json');
    expect(err?.file).toBe('plan.7z');
    expect(err?.reason).toMatch(/^corrupt 7z archive \(entry in-network\.json: .*(CRC Failed|Data Error).*\)$/);
  });
});
