/**
 * Loader of the Medicare benchmark's reference files (reference-data/README.md): the CMS Physician
 * Fee Schedule relative value file (PPRRVU), the GPCI file, the locality county list (LOCCO), the
 * ZIP5 locality file with its layout, the Clinical Laboratory Fee Schedule (CLFS), OPPS Addendum B
 * and the HCPCS Level II file. Files are found in the directory by name pattern (FILE_PATTERNS), so a
 * new year's files replace these without code changes; the year and the conversion factor come from
 * the PFS file. A missing, ambiguous or malformed file throws an Error naming the file (and the line).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clean, code, dataRows, fail, failAt, lineOf, message, noticesOf, num, onlyCodes, put, readText, rowsOf, table, type Row, type Text } from './reference-csv';

/** One line of the PFS relative value file (RVUs dimensionless, totals = RVU sums; 0 when none). */
export interface PfsLine {
  code: string;
  /** MOD, upper case: '' (global), '26', 'TC' or another (53 in 2025); DESCRIPTION; STATUS CODE (A, R, T, I, X, ...). */
  modifier: string; description: string; status: string;
  workRvu: number; nonFacilityPeRvu: number; facilityPeRvu: number; mpRvu: number;
  nonFacilityTotal: number; facilityTotal: number;
}

/** One line of the CLFS: RATE in USD (national limit), SHORTDESC. */
export interface ClfsLine { code: string; modifier: string; rate: number; shortDescription: string }
/** One line of OPPS Addendum B: SI trimmed, Payment Rate in USD (null when blank). */
export interface OppsLine { code: string; shortDescriptor: string; statusIndicator: string; apc: string; paymentRate: number | null }
/** One locality of the GPCI file: carrier 5 digits, locality 2 digits, the three GPCIs. */
export interface GpciLocality { carrier: string; locality: string; state: string; name: string; work: number; pe: number; mp: number }
/** One locality of the LOCCO county list (state filled down from the row above when blank). */
export interface LocalityCounties { carrier: string; locality: string; state: string; area: string; counties: string }
/** One ZIP5 record: plusFour true when the ZIP+4 file decides the locality (Plus Four Flag = 1). */
export interface ZipLocality { state: string; zip: string; carrier: string; locality: string; plusFour: boolean }

/** The Medicare reference data of one directory. Map keys: lineKey (PFS, CLFS), code, localityKey, ZIP. */
export interface MedicareReference {
  /** From the PFS title line ("2025 National Physician Fee Schedule Relative Value File ..."). */
  year: number;
  /** USD per RVU: the PFS CONV FACTOR column (one value on every line). */
  conversionFactor: number;
  /** Copyright lines quoted from the files' preambles (spaces normalized), deduplicated, in file order. */
  notices: string[];
  files: Array<{ name: string; sha256: string; bytes: number }>;
  /** PFS lines by lineKey(code, modifier); CLFS lines likewise. */
  pfs: Map<string, PfsLine>;
  clfs: Map<string, ClfsLine>;
  /** OPPS Addendum B lines by code. */
  opps: Map<string, OppsLine>;
  /** HCPCS Level II SHORT DESCRIPTION by code (RECID 3 lines, terminated codes included). */
  hcpcs: Map<string, string>;
  /** GPCI localities and LOCCO localities by localityKey(carrier, locality). */
  gpci: Map<string, GpciLocality>;
  localities: Map<string, LocalityCounties>;
  /** ZIP5 records by 5-digit ZIP. */
  zip5: Map<string, ZipLocality>;
}

/** Name patterns of the files (case-insensitive); exactly one file of the directory must match each. */
export const FILE_PATTERNS = {
  pfs: /^PPRRVU\d{4}.*\.csv(\.gz)?$/i,
  gpci: /^GPCI\d{4}.*\.csv(\.gz)?$/i,
  locco: /^\d{2}LOCCO.*\.csv(\.gz)?$/i,
  zip5: /^ZIP5_.*\.txt(\.gz)?$/i,
  zip5Layout: /^ZIP5.*l(a)?yout.*\.txt$/i,
  clfs: /^CLFS.*\.csv(\.gz)?$/i,
  opps: /Addendum B.*\.(txt|csv)(\.gz)?$/i,
  hcpcs: /^HCPC\d{4}.*ANWEB.*\.csv(\.gz)?$/i,
} as const;

/** Optional conversion-factor file (cf_type,cf_value): when present, its physician value must equal the PFS one. */
export const CF_FILE_PATTERN = /^cf_\d{4}.*\.csv$/i;

/** Key of a PFS or CLFS line: `99213|` (no modifier), `71046|26`. */
export function lineKey(code: string, modifier: string): string {
  return `${code.trim().toUpperCase()}|${modifier.trim().toUpperCase()}`;
}

/** Key of a locality: carrier padded to 5 digits, locality to 2 (`13202-01`): GPCI writes 02102/00, LOCCO 2102/0. */
export function localityKey(carrier: string, locality: string): string {
  return `${carrier.trim().padStart(5, '0')}-${locality.trim().padStart(2, '0')}`;
}

/** PFS column names are stacked over several header rows: each column's name joins its non-empty cells. */
const PFS_COLUMNS = {
  status: 'STATUS CODE', work: 'WORK RVU', nfPe: 'NON-FAC PE RVU', fPe: 'FACILITY PE RVU', mp: 'MP RVU',
  nfTotal: 'NON-FACILITY TOTAL', fTotal: 'FACILITY TOTAL', cf: 'CONV FACTOR',
} as const;

function readPfs(t: Text): { year: number; conversionFactor: number; notices: string[]; pfs: Map<string, PfsLine> } {
  const rows = rowsOf(t);
  const at = rows.findIndex((r) => r.cells.slice(0, 3).map(clean).join() === 'HCPCS,MOD,DESCRIPTION');
  if (at < 0) fail(t.name, null, 'no header row starting HCPCS,MOD,DESCRIPTION');
  const above = rows.slice(0, at + 1);
  const names = rows[at]!.cells.map((_, c) => clean(above.map((r) => (c < 3 ? '' : (r.cells[c] ?? ''))).join(' ')));
  const col = {} as Record<keyof typeof PFS_COLUMNS, number>;
  for (const [k, label] of Object.entries(PFS_COLUMNS) as Array<[keyof typeof PFS_COLUMNS, string]>) {
    col[k] = names.indexOf(label);
    if (col[k] < 0) fail(t.name, null, `no column "${label}" in the header rows`);
  }
  const title = above.flatMap((r) => r.cells).map((c) => /(\d{4}) National Physician Fee Schedule/i.exec(c)).find((m) => m);
  if (!title) fail(t.name, null, 'no title line "<year> National Physician Fee Schedule ..."');
  const pfs = new Map<string, PfsLine>();
  let cf: { value: number; index: number } | null = null;
  const keys = Object.keys(PFS_COLUMNS) as Array<keyof typeof PFS_COLUMNS>;
  const values = {} as Record<keyof typeof PFS_COLUMNS, number>;
  for (const { index, cells } of dataRows(t, rows, at)) {
    for (const k of keys) if (k !== 'status') values[k] = num(t, index, PFS_COLUMNS[k], cells[col[k]]!);
    const c = code(t, index, cells[0]!);
    const modifier = cells[1]!.trim().toUpperCase();
    if (cf === null) cf = { value: values.cf, index };
    else if (values.cf !== cf.value) failAt(t, index, `CONV FACTOR ${values.cf} differs from ${cf.value} of line ${lineOf(t, cf.index)}`);
    put(pfs, lineKey(c, modifier), {
      code: c, modifier, description: cells[2]!.trim(), status: cells[col.status]!.trim(),
      workRvu: values.work, nonFacilityPeRvu: values.nfPe, facilityPeRvu: values.fPe, mpRvu: values.mp,
      nonFacilityTotal: values.nfTotal, facilityTotal: values.fTotal,
    }, t, index);
  }
  if (cf === null) fail(t.name, null, 'no data lines after the header');
  return { year: Number(title[1]), conversionFactor: cf.value, notices: noticesOf(rows, at), pfs };
}

function readClfs(t: Text): { notices: string[]; clfs: Map<string, ClfsLine> } {
  const { col, data, notices } = table(t, { code: /^HCPCS$/i, mod: /^MOD$/i, rate: /^RATE$/i, desc: /^SHORTDESC$/i });
  const clfs = new Map<string, ClfsLine>();
  for (const { index, cells } of data) {
    const c = code(t, index, cells[col.code]!);
    const modifier = cells[col.mod]!.trim().toUpperCase();
    const rate = num(t, index, 'RATE', cells[col.rate]!);
    put(clfs, lineKey(c, modifier), { code: c, modifier, rate, shortDescription: cells[col.desc]!.trim() }, t, index);
  }
  return { notices, clfs };
}

function readOpps(t: Text): { notices: string[]; opps: Map<string, OppsLine> } {
  const { col, data, notices } = table(t, { code: /^HCPCS Code$/i, desc: /^Short Descriptor$/i, si: /^SI$/i, apc: /^APC$/i, rate: /^Payment Rate$/i });
  const opps = new Map<string, OppsLine>();
  for (const { index, cells } of data) {
    const c = code(t, index, cells[col.code]!);
    const rate = cells[col.rate]!.trim();
    const paymentRate = rate === '' ? null : num(t, index, 'Payment Rate', rate);
    put(opps, c, { code: c, shortDescriptor: clean(cells[col.desc]!), statusIndicator: clean(cells[col.si]!).toUpperCase(), apc: clean(cells[col.apc]!), paymentRate }, t, index);
  }
  return { notices, opps };
}

function readHcpcs(t: Text): { notices: string[]; hcpcs: Map<string, string> } {
  const { col, data, notices } = table(t, { code: /^HCPC$/i, recid: /^RECID$/i, desc: /^SHORT DESCRIPTION$/i });
  const hcpcs = new Map<string, string>();
  for (const { index, cells } of data) {
    if (cells[col.recid]!.trim() !== '3') continue; // 7: modifier lines; 4, 8: continuation lines
    put(hcpcs, code(t, index, cells[col.code]!), cells[col.desc]!.trim(), t, index);
  }
  return { notices, hcpcs };
}

const CARRIER_COLUMN = /contractor|carrier|\bMAC\b/i;

/** localityKey of a GPCI or LOCCO row; null for a footnote (no contractor number). */
function localityRow(t: Text, { index, cells }: Row, col: { carrier: number; locality: number }): string | null {
  const carrier = cells[col.carrier]!.trim();
  if (!/^\d{1,5}$/.test(carrier)) return null;
  const locality = cells[col.locality]!.trim();
  if (!/^\d{1,2}$/.test(locality)) failAt(t, index, `locality "${locality}" is not a number`);
  return localityKey(carrier, locality);
}

function readGpci(t: Text): Map<string, GpciLocality> {
  const { col, data } = table(t, {
    carrier: CARRIER_COLUMN, state: /^state$/i, locality: /^locality (number|no\.?|code)$/i, name: /^locality name$/i,
    work: /\bPW GPCI\b/i, pe: /\bPE GPCI\b/i, mp: /\bMP GPCI\b/i,
  });
  const gpci = new Map<string, GpciLocality>();
  for (const row of data) {
    const key = localityRow(t, row, col);
    if (key === null) continue;
    const { index, cells } = row;
    const [work, pe, mp] = (['work', 'pe', 'mp'] as const).map((k) => num(t, index, `${k.toUpperCase()} GPCI`, cells[col[k]]!)) as [number, number, number];
    put(gpci, key, { carrier: key.slice(0, 5), locality: key.slice(6), state: cells[col.state]!.trim(), name: clean(cells[col.name]!), work, pe, mp }, t, index);
  }
  if (gpci.size === 0) fail(t.name, null, 'no locality rows');
  return gpci;
}

function readLocco(t: Text): Map<string, LocalityCounties> {
  const { col, data } = table(t, { carrier: CARRIER_COLUMN, locality: /^locality/i, state: /^state$/i, area: /^fee schedule area$/i, counties: /^counties$/i });
  const localities = new Map<string, LocalityCounties>();
  let state = '';
  for (const row of data) {
    const key = localityRow(t, row, col);
    if (key === null) continue;
    const { cells } = row;
    state = clean(cells[col.state]!) || state; // written on a state's first line only
    if (localities.has(key)) continue; // a locality served by two carriers is listed twice: the first line is kept
    localities.set(key, { carrier: key.slice(0, 5), locality: key.slice(6), state, area: clean(cells[col.area]!), counties: clean(cells[col.counties]!) });
  }
  return localities;
}

const ZIP5_FIELDS = { state: /^state$/i, zip: /^zip code$/i, carrier: /^carrier$/i, locality: /^pricing locality$/i, plusFour: /^plus four flag$/i };
type Zip5Field = keyof typeof ZIP5_FIELDS;

/** Field positions (1-based, inclusive) from the layout file's "Name  Begin  End  Length" lines. */
function readZip5Layout(t: Text): Record<Zip5Field, [number, number]> {
  const found: Partial<Record<Zip5Field, [number, number]>> = {};
  for (const text of t.text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][A-Za-z0-9 +/.-]*?)\s+(\d+)\s+(\d+)\s+\d+/.exec(text);
    const field = m && (Object.keys(ZIP5_FIELDS) as Zip5Field[]).find((f) => ZIP5_FIELDS[f].test(m[1]!.trim()));
    if (m && field) found[field] = [Number(m[2]), Number(m[3])];
  }
  for (const f of Object.keys(ZIP5_FIELDS) as Zip5Field[]) if (!found[f]) fail(t.name, null, `no position of the field ${ZIP5_FIELDS[f].source}`);
  return found as Record<Zip5Field, [number, number]>;
}

function readZip5(t: Text, layout: Record<Zip5Field, [number, number]>): Map<string, ZipLocality> {
  const end = Math.max(...Object.values(layout).map(([, e]) => e));
  const zip5 = new Map<string, ZipLocality>();
  const lines = t.text.split(/\r?\n/);
  const field = (text: string, f: Zip5Field): string => text.slice(layout[f][0] - 1, layout[f][1]).trim();
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    const z = { state: field(text, 'state'), zip: field(text, 'zip'), carrier: field(text, 'carrier'), locality: field(text, 'locality'), flag: field(text, 'plusFour') };
    const ok = text.length >= end && /^\d{5}$/.test(z.zip) && /^\d{5}$/.test(z.carrier) && /^\d{2}$/.test(z.locality) && /^[01]?$/.test(z.flag);
    if (!ok) fail(t.name, i + 1, `not a ZIP5 record of the layout (zip "${z.zip}", carrier "${z.carrier}", locality "${z.locality}", plus-four flag "${z.flag}")`);
    if (zip5.has(z.zip)) fail(t.name, i + 1, `a second record for ZIP ${z.zip}`);
    zip5.set(z.zip, { state: z.state, zip: z.zip, carrier: z.carrier, locality: z.locality, plusFour: z.flag === '1' });
  }
  if (zip5.size === 0) fail(t.name, null, 'no ZIP records');
  return zip5;
}

function checkCfFile(t: Text, conversionFactor: number): void {
  const { col, data } = table(t, { type: /^cf_type$/i, value: /^cf_value$/i });
  const physician = data.find((r) => r.cells[col.type]!.trim().toLowerCase() === 'physician');
  if (!physician) fail(t.name, null, 'no physician conversion factor');
  const value = num(t, physician.index, 'cf_value', physician.cells[col.value]!);
  if (value !== conversionFactor) failAt(t, physician.index, `physician conversion factor ${value} differs from the PFS CONV FACTOR ${conversionFactor}`);
}

/** reference-data/ at the repository root. */
export const DEFAULT_REFERENCE_DIR = fileURLToPath(new URL('../../reference-data/', import.meta.url));

async function load(dir: string, codes?: ReadonlySet<string>): Promise<MedicareReference> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((e: unknown) => fail(`Medicare reference data ${dir}`, null, message(e)));
  const names = entries.filter((d) => d.isFile()).map((d) => d.name).sort();
  const pick = (pattern: RegExp, required: boolean): string | null => {
    const hits = names.filter((n) => pattern.test(n));
    if (hits.length > 1) throw new Error(`Medicare reference data: several files in ${dir} match ${pattern}: ${hits.join(', ')}`);
    if (hits.length === 0 && required) throw new Error(`Medicare reference data: no file in ${dir} matches ${pattern}`);
    return hits[0] ?? null;
  };
  const kinds = Object.keys(FILE_PATTERNS) as Array<keyof typeof FILE_PATTERNS>;
  const chosen = kinds.map((k) => pick(FILE_PATTERNS[k], true)!);
  const cfName = pick(CF_FILE_PATTERN, false);
  const texts = await Promise.all([...chosen, ...(cfName ? [cfName] : [])].map((n) => readText(dir, n)));
  const t = Object.fromEntries(kinds.map((k, i) => [k, texts[i]!])) as unknown as Record<keyof typeof FILE_PATTERNS, Text>;
  const whole = wholeTables(t, kinds.map((k, i) => `${k} ${texts[i]!.file.name} ${texts[i]!.file.sha256}`).join('\n'));
  if (codes) for (const k of CODE_FIRST_FILES) t[k] = onlyCodes(t[k], codes);
  const pfs = readPfs(t.pfs);
  if (cfName) checkCfFile(texts[texts.length - 1]!, pfs.conversionFactor);
  const [opps, hcpcs] = [readOpps(t.opps), readHcpcs(t.hcpcs)];
  return {
    year: pfs.year, conversionFactor: pfs.conversionFactor,
    notices: [...new Set([...pfs.notices, ...whole.clfs.notices, ...opps.notices, ...hcpcs.notices])],
    files: texts.map((x) => x.file),
    pfs: pfs.pfs, clfs: whole.clfs.clfs, opps: opps.opps, hcpcs: hcpcs.hcpcs,
    gpci: whole.gpci, localities: whole.localities, zip5: whole.zip5,
  };
}

/** The tables read whole whatever the codes asked for: CLFS, GPCI, localities, ZIP5. */
interface WholeTables {
  clfs: { notices: string[]; clfs: Map<string, ClfsLine> };
  gpci: Map<string, GpciLocality>;
  localities: Map<string, LocalityCounties>;
  zip5: Map<string, ZipLocality>;
}

/** The last WholeTables parsed, under the names and SHA-256 of the reference files they came from. */
let lastWhole: { key: string; tables: WholeTables } | null = null;

/**
 * The whole tables of the files `t`, parsed again only when `key` (every reference file's name and
 * SHA-256) differs from the last call's: a process that converts again (the BullMQ coordinator,
 * the tests) reads the same files, and ZIP5's 42,000 lines and CLFS were a third of the time its
 * conversion of a small catalog spent on the fee schedules. The last set is kept (a few MB); its
 * maps are shared by the references returned, which nobody changes.
 * @throws as the readers: nothing is kept then
 */
function wholeTables(t: Record<keyof typeof FILE_PATTERNS, Text>, key: string): WholeTables {
  if (lastWhole?.key === key) return lastWhole.tables;
  const tables = { clfs: readClfs(t.clfs), gpci: readGpci(t.gpci), localities: readLocco(t.locco), zip5: readZip5(t.zip5, readZip5Layout(t.zip5Layout)) };
  lastWhole = { key, tables };
  return tables;
}

const cache = new Map<string, Promise<MedicareReference>>();

/** The files whose first column is the HCPCS code: load reads only the lines of the codes asked for. */
const CODE_FIRST_FILES = ['pfs', 'opps', 'hcpcs'] as const;

/**
 * Reads the Medicare reference files of `dir` anew (the whole tables parsed again only when a
 * file's contents changed: wholeTables), kept by nobody: the converter's way. With
 * `codes`, the PFS, OPPS and HCPCS maps hold only the lines of those codes (every other table is
 * whole): a conversion needs its dataset's codes, and the codes their benchmarks read
 * (benchmark.ts BENCHMARK_READS). A file that fails is read again whole, so that the error names
 * the line of the file. Rejects like loadMedicareReference.
 */
export async function readMedicareReference(dir: string = DEFAULT_REFERENCE_DIR, codes?: ReadonlySet<string>): Promise<MedicareReference> {
  const at = path.resolve(dir);
  if (!codes) return load(at);
  try {
    return await load(at, codes);
  } catch {
    return load(at);
  }
}

/**
 * Reads the Medicare reference files of `dir` (default: the repository's reference-data/), once per
 * directory in this process (a failed load is not kept). Rejects with an Error naming the file (and
 * line) when a file is missing, matched twice or malformed.
 */
export function loadMedicareReference(dir: string = DEFAULT_REFERENCE_DIR): Promise<MedicareReference> {
  const key = path.resolve(dir);
  let p = cache.get(key);
  if (!p) {
    cache.set(key, (p = load(key)));
    p.catch(() => cache.delete(key)); // a failed load is not kept
  }
  return p;
}
