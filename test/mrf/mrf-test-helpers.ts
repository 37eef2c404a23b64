/**
 * Helpers of the MRF reader tests: chunked byte sources, fixture loading, an INDEPENDENT count of a
 * whole in-network file done with `JSON.parse` + plain loops (fine for the small fixtures; the
 * reader itself never parses a whole file), and zip archives built by hand (buildZip). The reads
 * through the converter's path are reader-helpers.ts.
 */
import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync, gunzipSync } from 'node:zlib';

export const FIXTURES = new URL('../fixtures/mrf/', import.meta.url);

/** Yields `bytes` in chunks of `size` bytes (copies, as a file stream would give). */
export async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

/** The stored bytes of fixture `name` of test/fixtures/mrf/ (gzip or plain JSON). */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

/** The decompressed JSON text of a fixture. */
export function fixtureText(name: string): string {
  const raw = fixtureBytes(name);
  return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

/** What independentCounts and rowCounts (reader-helpers.ts) count of one in-network file. */
export interface Counts {
  items: number;
  prices: number;
  references: number;
  /** Provider entries of root provider_references: one per non-zero NPI, or one per group without. */
  referenceProviders: number;
  /** Same rule for the inline provider_groups of negotiated_rates (v1). */
  inlineProviders: number;
}

type Group = { npi?: number[] };
type Doc = {
  provider_references?: Array<{ provider_groups?: Group[] }>;
  in_network: Array<{ negotiated_rates: Array<{ provider_groups?: Group[]; negotiated_prices: unknown[] }> }>;
};

function groupProviders(groups: Group[] | undefined): number {
  let n = 0;
  for (const g of groups ?? []) {
    let npis = 0;
    for (const x of g.npi ?? []) if (x !== 0) npis++;
    n += npis > 0 ? npis : 1;
  }
  return n;
}

/** Whole-document count with JSON.parse and loops: the oracle of the fixture tests. */
export function independentCounts(text: string): Counts {
  const doc = JSON.parse(text) as Doc;
  const c: Counts = { items: 0, prices: 0, references: 0, referenceProviders: 0, inlineProviders: 0 };
  for (const ref of doc.provider_references ?? []) {
    c.references++;
    c.referenceProviders += groupProviders(ref.provider_groups);
  }
  for (const item of doc.in_network) {
    c.items++;
    for (const rate of item.negotiated_rates) {
      c.prices += rate.negotiated_prices.length;
      c.inlineProviders += groupProviders(rate.provider_groups);
    }
  }
  return c;
}

/** One file of a zip archive built by buildZip. */
export interface ZipEntry {
  name: string;
  data: Buffer;
  deflate?: boolean;
}

/** A zip archive of `entries` (method 0 stored or 8 deflated), built by hand: local headers + data + central directory + end record (APPNOTE 4.3). */
export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/**
 * `bytes` (an in-network file holding the rate `131.38`) with its first `131.38` turned into
 * `931.38`, a copy: one corrupted digit that stays valid JSON, for the archives' CRC checks.
 * @throws Error when `bytes` holds no `131.38`.
 */
export function corruptDigit(bytes: Buffer): Buffer {
  const at = bytes.indexOf('131.38');
  if (at < 0) throw new Error('no 131.38 to corrupt');
  const out = Buffer.from(bytes);
  out[at] = 0x39; // '9'
  return out;
}
