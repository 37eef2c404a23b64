/**
 * The Medicare benchmark (docs/methodology.md "Medicare benchmark") over the repository's reference-data/:
 * expected amounts are worked out here from the files' lines, quoted above each case.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentOf, FACILITY_PLACES_OF_SERVICE, localityAmount, settingOf } from '../../contract/rules/medicare';
import { benchmarkAtZip, benchmarkTable, localityOfZip, nationalBenchmark, serviceDescriptor } from '../../scripts/medicare/benchmark';
import { loadMedicareReference, readMedicareReference, type MedicareReference } from '../../scripts/medicare/reference-data';
import { medicareTables } from '../../scripts/medicare/tables';

const DIR = fileURLToPath(new URL('../../reference-data/', import.meta.url));
/** PFS CONV FACTOR, USD per RVU (every line of PPRRVU2025_Oct.csv ends `...,32.3465,...`). */
const CF = 32.3465;
const cents = (x: number): number => Math.round(x * 100) / 100;

let ref: MedicareReference;
beforeAll(async () => {
  ref = await loadMedicareReference();
});

describe('loadMedicareReference', () => {
  it('reads the year and the conversion factor from the PFS file', () => {
    expect(ref.year).toBe(2025);
    expect(ref.conversionFactor).toBe(CF);
  });

  it('lists the files with their SHA-256 and the copyright notices', async () => {
    const names = ref.files.map((f) => f.name).sort();
    expect(names).toEqual((await readdir(DIR)).filter((n) => n !== 'README.md').sort());
    const gpci = ref.files.find((f) => f.name === 'GPCI2025.csv')!;
    expect(gpci.bytes).toBe(5251);
    expect(gpci.sha256).toBe('fc106f49547d0821db8fc33eee4f532d4a90e41110976659f80ac9e3a438f26e');
    expect(ref.notices).toContain('CPT codes and descriptions only are copyright 2024 American Medical Association. All Rights Reserved. Applicable FARS/DFARS Apply.');
    expect(ref.notices).toContain('Dental codes (D codes) are copyright 2025/26 American Dental Association. All Rights Reserved.');
    expect(ref.notices.some((n) => n.startsWith('CPT codes, descriptions and other data only are copyright 2025 American Medical Association.'))).toBe(true);
    expect(ref.notices.some((n) => n.endsWith('Dental codes (D codes) are copyright 2024 American Dental Association. All Rights Reserved.'))).toBe(true);
    expect(new Set(ref.notices).size).toBe(ref.notices.length);
  });

  it('reads every table, with the files quirks', async () => {
    expect(ref.pfs.size).toBe(19090);
    expect(ref.opps.size).toBe(18682);
    expect(ref.clfs.size).toBe(2105);
    expect(ref.gpci.size).toBe(109);
    expect(ref.localities.size).toBe(109);
    expect(ref.zip5.size).toBe(42956);
    // OPPS `A4341<0xFF>` and `0526U `; `"Ext wear ost skn barr <=4sq"""` (a doubled quote, in OPPS and HCPCS)
    expect(ref.opps.get('A4341')?.statusIndicator).toBe('N');
    expect(ref.opps.get('0526U')?.statusIndicator).toBe('Q4');
    expect(ref.opps.get('A4407')?.shortDescriptor).toBe('Ext wear ost skn barr <=4sq"');
    expect(ref.hcpcs.get('A4407')).toBe('Ext wear ost skn barr <=4sq"');
    // OPPS `0071T ... "$3,179.53"`
    expect(ref.opps.get('0071T')?.paymentRate).toBe(3179.53);
    // GPCI `02102,AK,01,ALASKA*,...`, 25LOCCO `2102,1,ALASKA ,STATEWIDE ,ALL COUNTIES `
    expect(ref.gpci.get('02102-01')?.work).toBe(1.5);
    expect(ref.localities.get('02102-01')).toMatchObject({ state: 'ALASKA', area: 'STATEWIDE' });
    // 25LOCCO writes the state on a state's first line only: `1112,52,,SAN FRANCISCO-...`
    expect(ref.localities.get('01112-52')?.state).toBe('CALIFORNIA');
    expect(await loadMedicareReference(DIR)).toBe(ref); // cached per directory
  });
});

describe('contract/rules/medicare', () => {
  it('componentOf: 26, then TC, else global', () => {
    expect(componentOf('')).toBe('global');
    expect(componentOf('26')).toBe('26');
    expect(componentOf('59,TC')).toBe('TC');
    expect(componentOf('TC,26')).toBe('26');
    expect(componentOf('25')).toBe('global');
  });

  it('settingOf: facility when every place of service is one', () => {
    expect(FACILITY_PLACES_OF_SERVICE).toContain('21');
    expect(settingOf('professional', '21')).toBe('facility');
    expect(settingOf('both', '21,22')).toBe('facility');
    expect(settingOf('professional', '11,21')).toBe('non-facility');
    expect(settingOf('professional', '')).toBe('non-facility');
    expect(settingOf('professional', '11')).toBe('non-facility');
    expect(settingOf('institutional', '11')).toBe('facility');
    expect(settingOf('institutional', '')).toBe('facility');
  });
});

describe('nationalBenchmark, professional (PFS, then CLFS)', () => {
  // PFS `99213,,Office o/p est low 20 min,A,,1.30,1.35,,0.57,,0.10,2.75,1.97,...,32.3465,...`
  it('99213: NON-FACILITY TOTAL 2.75 and FACILITY TOTAL 1.97 x the CF', () => {
    const nf = nationalBenchmark(ref, '99213', 'professional', 'global', 'non-facility');
    expect(nf).toEqual({
      billing_code: '99213', kind: 'professional', component: 'global', setting: 'non-facility',
      medicare_rate: cents(2.75 * 32.3465), source: 'pfs', work_rvu: 1.3, pe_rvu: 1.35, mp_rvu: 0.1,
    });
    expect(nf!.medicare_rate).toBe(88.95);
    const f = nationalBenchmark(ref, '99213', 'professional', 'global', settingOf('professional', '21'));
    expect(f).toMatchObject({ setting: 'facility', medicare_rate: cents(1.97 * 32.3465), pe_rvu: 0.57 });
    expect(f!.medicare_rate).toBe(63.72);
    expect(nationalBenchmark(ref, '99213', 'both', 'global', 'non-facility')?.kind).toBe('professional');
  });

  // PFS `71046,,...,A,,0.22,0.77,,0.77,NA,0.02,1.01,1.01,...`, `71046,26,...,0.22,0.08,,0.08,,0.01,0.31,0.31,...`,
  // `71046,TC,...,0.00,0.69,,0.69,NA,0.01,0.70,0.70,...`
  it('71046: the 26 and TC lines by component', () => {
    const pro = nationalBenchmark(ref, '71046', 'professional', componentOf('26'), 'non-facility');
    expect(pro).toMatchObject({ component: '26', medicare_rate: cents(0.31 * CF), work_rvu: 0.22, pe_rvu: 0.08, mp_rvu: 0.01 });
    expect(pro!.medicare_rate).toBe(10.03);
    const tc = nationalBenchmark(ref, '71046', 'professional', componentOf('TC'), 'non-facility');
    expect(tc).toMatchObject({ component: 'TC', medicare_rate: cents(0.7 * CF), work_rvu: 0 });
    expect(tc!.medicare_rate).toBe(22.64);
    const global = nationalBenchmark(ref, '71046', 'professional', 'global', 'non-facility');
    expect(global!.medicare_rate).toBe(cents(1.01 * CF));
    expect(global!.medicare_rate).toBe(32.67);
  });

  // PFS `80053,,Comprehen metabolic panel,X,,0.00,...,0.00,0.00,...`; CLFS `2025,80053,,20250101,N,00010.56,...`
  it('80053: PFS totals 0, so the CLFS RATE', () => {
    const b = nationalBenchmark(ref, '80053', 'professional', 'global', 'non-facility');
    expect(b).toMatchObject({ source: 'clfs', medicare_rate: 10.56, work_rvu: null, pe_rvu: null, mp_rvu: null });
    expect(nationalBenchmark(ref, '80053', 'institutional', 'global', 'facility')).toMatchObject({ source: 'clfs', medicare_rate: 10.56 });
  });

  // PFS `J9271,,Inj pembrolizumab,E,,0.00,...`: status E, totals 0, and not in the CLFS
  it('J9271: no professional benchmark', () => {
    expect(ref.pfs.get('J9271|')?.status).toBe('E');
    expect(nationalBenchmark(ref, 'J9271', 'professional', 'global', 'non-facility')).toBeNull();
    expect(nationalBenchmark(ref, 'J9271', 'professional', 'global', 'facility')).toBeNull();
  });

  // PFS `0001F,,Heart failure composite,I,,0.00,...`: status I, totals 0; OPPS SI E1 without rate
  it('no benchmark for a status-I code with 0 totals, an unknown code or another class', () => {
    expect(nationalBenchmark(ref, '0001F', 'professional', 'global', 'non-facility')).toBeNull();
    expect(nationalBenchmark(ref, '0001F', 'institutional', 'global', 'facility')).toBeNull();
    expect(nationalBenchmark(ref, 'ZZZZZ', 'professional', 'global', 'non-facility')).toBeNull();
    expect(nationalBenchmark(ref, 'ZZZZZ', 'institutional', 'global', 'facility')).toBeNull();
    expect(nationalBenchmark(ref, '99213', 'other', 'global', 'non-facility')).toBeNull();
  });
});

describe('nationalBenchmark, institutional (OPPS, then CLFS)', () => {
  // OPPS `71046\tX-ray exam chest 2 views\t\tQ3\t5521\t0.9874\t$88.05\t...`
  it('71046: the OPPS Payment Rate, whatever the component', () => {
    for (const component of ['global', '26', 'TC'] as const) {
      expect(nationalBenchmark(ref, '71046', 'institutional', component, 'non-facility')).toEqual({
        billing_code: '71046', kind: 'institutional', component, setting: 'facility',
        medicare_rate: 88.05, source: 'opps', work_rvu: null, pe_rvu: null, mp_rvu: null,
      });
    }
  });

  // OPPS `99213\t...\t\tB\t...` (no rate); `G0463\tHospital outpt clinic visit\t\tJ2\t5012\t1.4452\t$128.87\t...`
  it('99213: the payment rate of G0463', () => {
    expect(ref.opps.get('99213')?.paymentRate).toBeNull();
    expect(nationalBenchmark(ref, '99213', 'institutional', 'global', 'facility')).toMatchObject({ source: 'opps', medicare_rate: 128.87 });
    expect(nationalBenchmark(ref, '99205', 'institutional', 'global', 'facility')?.medicare_rate).toBe(128.87);
  });

  // OPPS `J9271\tInj pembrolizumab\t\tK\t1490\t\t$58.216\t...`: SI K
  it('J9271: status K, no benchmark', () => {
    expect(ref.opps.get('J9271')).toMatchObject({ statusIndicator: 'K', paymentRate: 58.216 });
    expect(nationalBenchmark(ref, 'J9271', 'institutional', 'global', 'facility')).toBeNull();
  });
});

describe('benchmarkTable', () => {
  it('gives every unit with a benchmark, sorted', () => {
    const rows = benchmarkTable(ref, ['99213', '71046', ' 99213', 'ZZZZZ', 'J9271']);
    const keys = rows.map((b) => `${b.billing_code} ${b.kind} ${b.component} ${b.setting} ${b.medicare_rate}`);
    expect(keys).toEqual([
      `71046 professional global facility ${cents(1.01 * CF)}`,
      `71046 professional global non-facility ${cents(1.01 * CF)}`,
      `71046 professional 26 facility ${cents(0.31 * CF)}`,
      `71046 professional 26 non-facility ${cents(0.31 * CF)}`,
      `71046 professional TC facility ${cents(0.7 * CF)}`,
      `71046 professional TC non-facility ${cents(0.7 * CF)}`,
      '71046 institutional global facility 88.05',
      '71046 institutional 26 facility 88.05',
      '71046 institutional TC facility 88.05',
      `99213 professional global facility ${cents(1.97 * CF)}`,
      `99213 professional global non-facility ${cents(2.75 * CF)}`,
      '99213 institutional global facility 128.87',
      '99213 institutional 26 facility 128.87',
      '99213 institutional TC facility 128.87',
    ]);
  });
});

describe('localityOfZip and the locality amount', () => {
  // ZIP5 `NY100011320201 Z9   0 A ...`: carrier 13202, locality 01; GPCI `13202,NY,01,MANHATTAN,1.065,1.166,1.656`
  it('10001 (Manhattan): 99213 at the locality GPCIs', () => {
    const at = localityOfZip(ref, '10001');
    expect(at).toEqual({ carrier: '13202', locality: '01', gpci: { work: 1.065, pe: 1.166, mp: 1.656 } });
    expect(localityOfZip(ref, '10001-2345')).toEqual(at);
    const b = nationalBenchmark(ref, '99213', 'professional', 'global', 'non-facility')!;
    const expected = cents((1.3 * 1.065 + 1.35 * 1.166 + 0.1 * 1.656) * 32.3465);
    expect(expected).toBe(101.06);
    expect(localityAmount({ work_rvu: 1.3, pe_rvu: 1.35, mp_rvu: 0.1 }, at!.gpci, ref.conversionFactor)).toBe(expected);
    expect(benchmarkAtZip(ref, b, '10001')).toBe(expected);
    // CLFS and OPPS amounts are national
    const lab = nationalBenchmark(ref, '80053', 'professional', 'global', 'non-facility')!;
    expect(benchmarkAtZip(ref, lab, '10001')).toBe(10.56);
  });

  // ZIP5 `AL359581011200RZ9R  1 A ...`: Plus Four Flag (position 21) = 1
  it('a ZIP that needs ZIP+4, an unknown ZIP and no ZIP: null', () => {
    expect(ref.zip5.get('35958')?.plusFour).toBe(true);
    expect(localityOfZip(ref, '35958')).toBeNull();
    expect(localityOfZip(ref, '00000')).toBeNull();
    expect(localityOfZip(ref, '123')).toBeNull();
    expect(localityOfZip(ref, null)).toBeNull();
    const b = nationalBenchmark(ref, '99213', 'professional', 'global', 'non-facility')!;
    expect(benchmarkAtZip(ref, b, '35958')).toBe(88.95);
  });
});

describe('serviceDescriptor', () => {
  it('PFS DESCRIPTION, else HCPCS SHORT DESCRIPTION; CPT only with cptDescriptors', () => {
    expect(serviceDescriptor(ref, '99213', { cptDescriptors: true })).toBe('Office o/p est low 20 min');
    expect(serviceDescriptor(ref, '99213', { cptDescriptors: false })).toBeNull();
    expect(serviceDescriptor(ref, 'J9271', { cptDescriptors: false })).toBe('Inj pembrolizumab');
    // C7561 is in neither the PFS nor the HCPCS file: the OPPS Short Descriptor
    expect(ref.hcpcs.has('C7561')).toBe(false);
    expect(serviceDescriptor(ref, 'C7561', { cptDescriptors: false })).toBe(ref.opps.get('C7561')!.shortDescriptor);
    // 86153 has only a 26 line in the PFS
    expect(serviceDescriptor(ref, '86153', { cptDescriptors: true })).toBe('Cell enumeration phys interp');
    expect(serviceDescriptor(ref, 'ZZZZZ', { cptDescriptors: true })).toBeNull();
  });
});

describe('malformed reference data', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'medicare-ref-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  /** A copy of reference-data/ in a new directory, without `drop`, with `extra` written. */
  async function copyWith(dirName: string, drop: string[], extra: Record<string, string | Buffer>): Promise<string> {
    const dir = path.join(tmp, dirName);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    for (const name of await readdir(DIR)) if (!drop.includes(name)) await copyFile(path.join(DIR, name), path.join(dir, name));
    for (const [name, content] of Object.entries(extra)) await writeFile(path.join(dir, name), content);
    return dir;
  }

  const pfsText = async (): Promise<string> => gunzipSync(await readFile(path.join(DIR, 'PPRRVU2025_Oct.csv.gz'))).toString('latin1');

  it('a truncated PFS file: the file and the line', async () => {
    const lines = (await pfsText()).split('\r\n');
    const cut = [...lines.slice(0, 199), lines[199]!.slice(0, 20)].join('\r\n');
    const dir = await copyWith('truncated', ['PPRRVU2025_Oct.csv.gz'], { 'PPRRVU2025_Oct.csv': cut });
    await expect(loadMedicareReference(dir)).rejects.toThrow(/^PPRRVU2025_Oct\.csv line 200: \d+ fields, the header has 31$/);
  });

  it('the converter\'s read of a few codes: their lines only, the same tables, errors at the line of the file', async () => {
    const codes = ['99213', '71046', '80053', 'J9271', 'G0463', 'A4341', '0526U'];
    const few = await readMedicareReference(DIR, new Set(codes));
    // the PFS holds 99213, 71046 (global, 26, TC) and the other codes' lines, of its ~19,000
    expect([...few.pfs.keys()].every((k) => codes.includes(k.split('|')[0]!))).toBe(true);
    expect(few.pfs.get('71046|26')).toEqual(ref.pfs.get('71046|26'));
    expect(few.opps.size).toBeLessThan(10);
    expect(few.zip5.size).toBe(ref.zip5.size);
    expect(medicareTables(few, { codes, cptDescriptors: true })).toEqual(medicareTables(ref, { codes, cptDescriptors: true }));
    // a bad line of a code asked for: the error names its line in the whole file
    const lines = (await pfsText()).split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('99213,,'));
    lines[at] = lines[at]!.replace(',1.30,', ',1.3O,');
    const dir = await copyWith('few-bad-number', ['PPRRVU2025_Oct.csv.gz'], { 'PPRRVU2025_Oct.csv': lines.join('\r\n') });
    await expect(readMedicareReference(dir, new Set(codes))).rejects.toThrow(`PPRRVU2025_Oct.csv line ${at + 1}: WORK RVU "1.3O" is not a number`);
  });

  it("the converter's reads keep the whole tables while the files are the same, and parse them again when one changes", async () => {
    const codes = new Set(['99213']);
    const first = await readMedicareReference(DIR, codes);
    const again = await readMedicareReference(DIR, codes);
    expect(again.zip5).toBe(first.zip5);
    expect(medicareTables(again, { codes: ['99213'], cptDescriptors: false }).zipLocalities).toBe(medicareTables(first, { codes: ['99213'], cptDescriptors: false }).zipLocalities);
    // ZIP 10001 (Manhattan) taken out of the ZIP5 file: gone from the ZIPs and from their localities
    const zip5 = gunzipSync(await readFile(path.join(DIR, 'ZIP5_OCT2025.txt.gz'))).toString('latin1').split('\n');
    const without = zip5.filter((l) => !/^..10001/.test(l));
    expect(without.length).toBe(zip5.length - 1);
    const dir = await copyWith('zip5-changed', ['ZIP5_OCT2025.txt.gz'], { 'ZIP5_OCT2025.txt': without.join('\n') });
    const changed = await readMedicareReference(dir, codes);
    expect(changed.zip5).not.toBe(first.zip5);
    expect([first.zip5.has('10001'), changed.zip5.has('10001')]).toEqual([true, false]);
    const zips = (r: MedicareReference) => medicareTables(r, { codes: ['99213'], cptDescriptors: false }).zipLocalities.map((z) => z.zip);
    expect([zips(first).includes('10001'), zips(changed).includes('10001')]).toEqual([true, false]);
    expect(zips(changed).length).toBe(zips(first).length - 1);
  });

  it('a PFS number that is not one, a second conversion factor', async () => {
    const text = await pfsText();
    const lines = text.split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('99213,,'));
    lines[at] = lines[at]!.replace(',1.30,', ',1.3O,');
    let dir = await copyWith('bad-number', ['PPRRVU2025_Oct.csv.gz'], { 'PPRRVU2025_Oct.csv': lines.join('\r\n') });
    await expect(loadMedicareReference(dir)).rejects.toThrow(`PPRRVU2025_Oct.csv line ${at + 1}: WORK RVU "1.3O" is not a number`);
    const other = text.split('\r\n');
    other[at] = other[at]!.replace(',32.3465,', ',33.0000,');
    dir = await copyWith('two-cf', ['PPRRVU2025_Oct.csv.gz'], { 'PPRRVU2025_Oct.csv': other.join('\r\n') });
    await expect(loadMedicareReference(dir)).rejects.toThrow(`PPRRVU2025_Oct.csv line ${at + 1}: CONV FACTOR 33 differs from 32.3465 of line 11`);
  });

  it('a GPCI file missing a column', async () => {
    const gpci = (await readFile(path.join(DIR, 'GPCI2025.csv'), 'latin1')).split('\r\n').map((l) => l.split(',').slice(0, 6).join(','));
    const dir = await copyWith('gpci', ['GPCI2025.csv'], { 'GPCI2025.csv': gpci.join('\r\n') });
    await expect(loadMedicareReference(dir)).rejects.toThrow(/^GPCI2025\.csv: no header row with the columns .*MP GPCI/);
  });

  it('a missing file, two files of one kind, a broken gzip', async () => {
    let dir = await copyWith('missing', ['CLFS 2025 Q2V1.csv'], {});
    await expect(loadMedicareReference(dir)).rejects.toThrow(/no file in .* matches \/\^CLFS/);
    dir = await copyWith('twice', [], { 'GPCI2026.csv': await readFile(path.join(DIR, 'GPCI2025.csv')) });
    await expect(loadMedicareReference(dir)).rejects.toThrow(/several files .*: GPCI2025\.csv, GPCI2026\.csv/);
    const gz = await readFile(path.join(DIR, 'ZIP5_OCT2025.txt.gz'));
    dir = await copyWith('gzip', ['ZIP5_OCT2025.txt.gz'], { 'ZIP5_OCT2025.txt.gz': gz.subarray(0, 1000) });
    await expect(loadMedicareReference(dir)).rejects.toThrow(/^ZIP5_OCT2025\.txt\.gz: not a complete gzip file/);
  });
});
