/**
 * Deterministic generator of a large in-network-rates file (CMS v1 shape, gzip) for the converter
 * benchmark and for tests at small sizes. Nothing it writes is committed.
 *
 * Shape: header, `provider_references[]` of `providerReferences` groups with 1 to 50 NPIs each
 * (about 10 on average: 1 + floor(49 u^4), mean 1 + 49/5 = 10.8), then `in_network[]` items of
 * about `itemBytes` each, one of which (index 1) is a single item of about `bigItemBytes`; every
 * negotiated rate names 1 to 5 provider references and carries 1 to 3 prices. Billing codes are
 * unique per item: `String(20000 + i)` for item i, or with `codes`, the i-th of them (priced from
 * its amount); `keptCodes` lists every 20th (5 % of the items, item 0 included, the big item
 * excluded). With `sharedWith`, every other provider group has the NPIs of the same group of the
 * file of that seed: two insurers that contract with some of the same providers.
 */
import { mulberry32 } from '../../contract/rules/prng';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, constants } from 'node:zlib';

/** Options; sizes in bytes of uncompressed JSON. */
export interface LargeMrfOptions {
  targetBytes: number;
  bigItemBytes?: number;
  itemBytes?: number;
  providerReferences?: number;
  seed?: number;
  /**
   * Gives every price its own `additional_information` (free text no two prices share), the worst
   * case of the value codes (price-values.ts); the rest of the file is the same as without it.
   */
  freeText?: boolean;
  /**
   * Real codes with a reference amount (USD; the PFS non-facility amount, bench/pfs-codes.ts): item i
   * bills codes[i] (codes[i mod length] past the end) and its prices are that amount times a
   * factor drawn log-uniformly in 0.6-12 (inside the 0.3-30x validation bounds also where the
   * facility or OPPS amount applies). Without it, codes 20000, 20001, ... at $10-$1,000.
   */
  codes?: ReadonlyArray<{ code: string; amount: number }>;
  /** The seed of another file whose even-numbered provider groups this file's repeat (same NPIs and TIN). */
  sharedWith?: number;
}

/** What was written. */
export interface LargeMrfResult {
  jsonBytes: number;
  items: number;
  /** Number of negotiated_prices written (each gives 1 to 5 rate rows). */
  prices: number;
  /** Rate rows the converter should find: sum over prices of the references they name. */
  rateRows: number;
  /** Codes of 5 % of the items (every 20th item), for a billing-code filter. */
  keptCodes: string[];
}

const prng = mulberry32;

const TYPES = ['negotiated', 'negotiated', 'negotiated', 'fee schedule', 'derived'];
const CLASSES = ['professional', 'institutional', 'both'];
const POS = ['"11"', '"11","22"', '"21","22","23"', '"02"', '"1"'];

/**
 * Writes the file at `outPath` (gzip, level 1) and returns its figures.
 * @throws when the file cannot be written.
 */
export async function generateLargeMrf(outPath: string, o: LargeMrfOptions): Promise<LargeMrfResult> {
  const rnd = prng(o.seed ?? 42);
  const refs = o.providerReferences ?? 50_000;
  const bigItem = o.bigItemBytes ?? 0;
  const itemBytes = o.itemBytes ?? 400_000;
  const gz = createGzip({ level: 1, chunkSize: 1 << 20, strategy: constants.Z_DEFAULT_STRATEGY });
  const file = createWriteStream(outPath);
  gz.pipe(file);
  let jsonBytes = 0;
  let buf = '';
  const put = async (s: string): Promise<void> => {
    buf += s;
    if (buf.length < 1 << 20) return;
    jsonBytes += Buffer.byteLength(buf);
    const ok = gz.write(buf);
    buf = '';
    if (!ok) await once(gz, 'drain');
  };
  const res: LargeMrfResult = { jsonBytes: 0, items: 0, prices: 0, rateRows: 0, keptCodes: [] };
  await put('{"reporting_entity_name":"Bench Health Plan","reporting_entity_type":"health insurance issuer",' +
    '"last_updated_on":"2025-01-01","version":"1.0.0","provider_references":[');
  // the other file's groups replayed draw for draw: its provider section is the first thing its generator draws
  const other = o.sharedWith === undefined ? null : prng(o.sharedWith);
  const groupOf = (r: () => number): number[] => {
    const n = 1 + Math.floor(49 * r() ** 4);
    const npis: number[] = [];
    for (let k = 0; k < n; k++) npis.push(1000000000 + Math.floor(r() * 8999999999));
    return npis;
  };
  for (let g = 0; g < refs; g++) {
    const theirs = other ? groupOf(other) : null;
    const mine = groupOf(rnd);
    const npis = theirs && g % 2 === 0 ? theirs : mine;
    const tin = `${10 + (g % 89)}-${String(1000000 + g).slice(-7)}`;
    await put(`${g ? ',' : ''}{"provider_group_id":${g},"provider_groups":[{"npi":[${npis.join(',')}],"tin":{"type":"ein","value":"${tin}"}}]}`);
  }
  await put('],"in_network":[');
  const rate = (amount: number | null): string => {
    const k = 1 + Math.floor(rnd() * 5);
    const ids: number[] = [];
    for (let j = 0; j < k; j++) ids.push(Math.floor(rnd() * refs));
    const p = 1 + Math.floor(rnd() * 3);
    const prices: string[] = [];
    for (let j = 0; j < p; j++) {
      const value = amount === null ? 10 + rnd() * 990 : amount * Math.exp(Math.log(0.6) + rnd() * Math.log(20));
      prices.push(`{"negotiated_type":"${TYPES[Math.floor(rnd() * TYPES.length)]}","negotiated_rate":${value.toFixed(2)},` +
        `"expiration_date":"9999-12-31","service_code":[${POS[Math.floor(rnd() * POS.length)]}],` +
        `"billing_class":"${CLASSES[Math.floor(rnd() * CLASSES.length)]}","billing_code_modifier":[]` +
        (o.freeText ? `,"additional_information":"Rate note ${res.prices + j} applies to this contract only"}` : '}'));
    }
    res.prices += p;
    res.rateRows += p * k;
    return `{"provider_references":[${ids.join(',')}],"negotiated_prices":[${prices.join(',')}]}`;
  };
  for (let i = 0; jsonBytes + buf.length < o.targetBytes || i < 2; i++) {
    const real = o.codes && o.codes.length > 0 ? o.codes[i % o.codes.length]! : null;
    const code = real ? real.code : String(20000 + i);
    if (i % 20 === 0) res.keptCodes.push(code);
    await put(`${i ? ',' : ''}{"negotiation_arrangement":"ffs","name":"Service ${code}","billing_code_type":"CPT",` +
      `"billing_code_type_version":"2025","billing_code":"${code}","description":"Generated service ${code}","negotiated_rates":[`);
    const size = i === 1 && bigItem > 0 ? bigItem : itemBytes * (0.5 + rnd());
    let written = 0;
    for (let r = 0; written < size; r++) {
      const text = (r ? ',' : '') + rate(real ? real.amount : null);
      written += text.length;
      await put(text);
    }
    await put(']}');
    res.items++;
  }
  await put(']}');
  jsonBytes += Buffer.byteLength(buf);
  gz.end(buf);
  await once(file, 'close');
  res.jsonBytes = jsonBytes;
  return res;
}
