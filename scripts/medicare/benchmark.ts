/**
 * The Medicare benchmark of docs/methodology.md "Medicare benchmark": the national Medicare amount of a
 * service's comparison unit (code, kind, component, setting) from the CMS files read by
 * reference-data.ts, the Medicare locality of a provider's ZIP and a service's descriptor.
 * Amounts are in USD; PFS amounts are rounded half away from zero to the cent, CLFS and OPPS
 * amounts are the files' values.
 */
import { localityAmount, type Component, type LocalityGpci, type PfsRvus, type UnitSetting } from '../../contract/rules/medicare';
import { roundHalfAway } from '../../contract/rules/format';
import { lineKey, localityKey, type MedicareReference } from './reference-data';

/**
 * The national Medicare amount of one comparison unit.
 * - billing_code: CPT/HCPCS code, upper case;
 * - kind: `professional` (professional and `both` rows) or `institutional`;
 * - component, setting: the unit's (contract/rules/medicare.ts componentOf, settingOf); institutional
 *   units are always `facility`;
 * - medicare_rate: USD, national (no geographic adjustment), above 0; PFS amounts rounded to the cent;
 * - source: `pfs` (PFS relative value file: total of the setting x CONV FACTOR), `clfs` (CLFS RATE)
 *   or `opps` (OPPS Addendum B Payment Rate);
 * - work_rvu, pe_rvu (of the setting: NON-FAC PE RVU or FACILITY PE RVU), mp_rvu: the PFS line's
 *   RVUs when source is `pfs` (for contract/rules/medicare.ts localityAmount), else null.
 */
export interface MedicareBenchmark {
  billing_code: string;
  kind: 'professional' | 'institutional';
  component: Component;
  setting: UnitSetting;
  medicare_rate: number;
  source: 'pfs' | 'clfs' | 'opps';
  work_rvu: number | null;
  pe_rvu: number | null;
  mp_rvu: number | null;
}

/** OPPS status indicators whose Payment Rate is no benchmark: G (pass-through drugs), K and K1 (separately paid drugs). */
const OPPS_EXCLUDED_SI: ReadonlySet<string> = new Set(['G', 'K', 'K1']);

/** Office or clinic visit codes, 99202-99215, benchmarked institutionally on G0463 (hospital outpatient clinic visit). */
const CLINIC_VISIT = /^992(0[2-9]|1[0-5])$/;

/** The codes whose reference lines the benchmark of another code reads: G0463 (CLINIC_VISIT). */
export const BENCHMARK_READS: readonly string[] = ['G0463'];

const COMPONENTS: readonly Component[] = ['global', '26', 'TC'];
const SETTINGS: readonly UnitSetting[] = ['facility', 'non-facility'];

/** OPPS Addendum B Payment Rate of a code when above 0 and its SI is not G, K or K1; else null. */
function oppsRate(ref: MedicareReference, code: string): number | null {
  const line = ref.opps.get(code);
  if (!line || line.paymentRate === null || !(line.paymentRate > 0) || OPPS_EXCLUDED_SI.has(line.statusIndicator)) return null;
  return line.paymentRate;
}

/** CLFS RATE of a code's line without modifier when above 0; else null. */
function clfsRate(ref: MedicareReference, code: string): number | null {
  const rate = ref.clfs.get(lineKey(code, ''))?.rate;
  return rate !== undefined && rate > 0 ? rate : null;
}

/**
 * The national benchmark of a rate row (docs/methodology.md "Medicare benchmark"), null when none.
 * - `professional` and `both`: the PFS line of the code and component (modifier 26 or TC, else the
 *   line without modifier), of any STATUS CODE, whose NON-FACILITY TOTAL or FACILITY TOTAL (of
 *   `setting`) is above 0: that total x the PFS CONV FACTOR, to the cent (source `pfs`); else the CLFS RATE of
 *   the code's line without modifier when above 0 (`clfs`, whatever the component);
 * - `institutional`: the OPPS Addendum B Payment Rate of the code when above 0 and SI not G, K, K1;
 *   for 99202-99215 that of G0463; else the CLFS RATE when above 0; setting always `facility`;
 * - any other billing class: null.
 * `billingCode` is trimmed and upper-cased; `billingClass` is compared in lower case.
 */
export function nationalBenchmark(
  ref: MedicareReference, billingCode: string, billingClass: string, component: Component, setting: UnitSetting,
): MedicareBenchmark | null {
  const code = billingCode.trim().toUpperCase();
  const cls = billingClass.trim().toLowerCase();
  const none = { work_rvu: null, pe_rvu: null, mp_rvu: null };
  if (cls === 'institutional') {
    const opps = oppsRate(ref, code) ?? (CLINIC_VISIT.test(code) ? oppsRate(ref, 'G0463') : null);
    const base = { billing_code: code, kind: 'institutional', component, setting: 'facility' } as const;
    if (opps !== null) return { ...base, medicare_rate: opps, source: 'opps', ...none };
    const clfs = clfsRate(ref, code);
    return clfs === null ? null : { ...base, medicare_rate: clfs, source: 'clfs', ...none };
  }
  if (cls !== 'professional' && cls !== 'both') return null;
  const base = { billing_code: code, kind: 'professional', component, setting } as const;
  const line = ref.pfs.get(lineKey(code, component === 'global' ? '' : component));
  const total = line ? (setting === 'facility' ? line.facilityTotal : line.nonFacilityTotal) : 0;
  if (line && total > 0) {
    return {
      ...base, medicare_rate: roundHalfAway(total * ref.conversionFactor, 2), source: 'pfs',
      work_rvu: line.workRvu, pe_rvu: setting === 'facility' ? line.facilityPeRvu : line.nonFacilityPeRvu, mp_rvu: line.mpRvu,
    };
  }
  const clfs = clfsRate(ref, code);
  return clfs === null ? null : { ...base, medicare_rate: clfs, source: 'clfs', ...none };
}

/**
 * Every comparison unit of `codes` (deduplicated, trimmed, upper case) that has a benchmark:
 * professional units for each component (global, 26, TC) and setting (facility, non-facility);
 * institutional units for each component with setting `facility`, all with the same amount (an
 * institutional row's benchmark does not depend on its component). Sorted by billing_code, then
 * kind (professional, institutional), component (global, 26, TC), setting (facility, non-facility).
 */
export function benchmarkTable(ref: MedicareReference, codes: Iterable<string>): MedicareBenchmark[] {
  const distinct = [...new Set([...codes].map((c) => c.trim().toUpperCase()))].filter((c) => c !== '').sort();
  const out: MedicareBenchmark[] = [];
  for (const code of distinct) {
    for (const component of COMPONENTS) {
      for (const setting of SETTINGS) {
        const b = nationalBenchmark(ref, code, 'professional', component, setting);
        if (b) out.push(b);
      }
    }
    for (const component of COMPONENTS) {
      const b = nationalBenchmark(ref, code, 'institutional', component, 'facility');
      if (b) out.push(b);
    }
  }
  return out;
}

/**
 * The Medicare locality of a provider's ZIP (its first 5 digits; `10001-2345` and `100012345` read
 * as 10001): the CMS ZIP5 file's carrier and pricing locality, and that locality's GPCIs (GPCI file).
 * Null when the ZIP is null, has fewer than 5 digits, is not in the ZIP5 file, or its ZIP5 record
 * needs the ZIP+4 file to decide (Plus Four Flag = 1): the amount is then national.
 * Locality amount: contract/rules/medicare.ts localityAmount(benchmark RVUs, gpci, ref.conversionFactor),
 * for PFS benchmarks only.
 */
export function localityOfZip(ref: MedicareReference, zip: string | null): { carrier: string; locality: string; gpci: LocalityGpci } | null {
  const digits = zip?.trim().match(/^\d{5}/)?.[0];
  const record = digits === undefined ? undefined : ref.zip5.get(digits);
  if (!record || record.plusFour) return null;
  const row = ref.gpci.get(localityKey(record.carrier, record.locality));
  if (!row) return null;
  return { carrier: row.carrier, locality: row.locality, gpci: { work: row.work, pe: row.pe, mp: row.mp } };
}

/** The PFS RVUs of a benchmark when its source is the PFS, else null (then no locality amount). */
export function pfsRvusOf(b: MedicareBenchmark): PfsRvus | null {
  return b.source === 'pfs' && b.work_rvu !== null && b.pe_rvu !== null && b.mp_rvu !== null
    ? { work_rvu: b.work_rvu, pe_rvu: b.pe_rvu, mp_rvu: b.mp_rvu }
    : null;
}

/**
 * The locality amount of a benchmark at a provider's ZIP, USD: the PFS amount with the locality's
 * GPCIs (contract/rules/medicare.ts localityAmount) for a PFS benchmark of a known ZIP; the national
 * medicare_rate otherwise (CLFS and OPPS amounts, unknown ZIP, ZIP+4 needed).
 */
export function benchmarkAtZip(ref: MedicareReference, b: MedicareBenchmark, zip: string | null): number {
  const rvus = pfsRvusOf(b);
  const locality = rvus ? localityOfZip(ref, zip) : null;
  return rvus && locality ? localityAmount(rvus, locality.gpci, ref.conversionFactor) : b.medicare_rate;
}

/** HCPCS Level II codes: a letter A-V, then 4 characters. */
const LEVEL_II = /^[A-V][0-9A-Z]{4}$/;

/**
 * A service's descriptor: the PFS DESCRIPTION (line without modifier, else its 26, TC or 53
 * line), else the HCPCS Level II SHORT DESCRIPTION, else the CLFS SHORTDESC, else the
 * OPPS Short Descriptor; null when none. CPT descriptors are the AMA's (MedicareReference.notices):
 * with `cptDescriptors: false` only HCPCS Level II codes (starting with a letter A-V) get one.
 */
export function serviceDescriptor(ref: MedicareReference, billingCode: string, options: { cptDescriptors: boolean }): string | null {
  const code = billingCode.trim().toUpperCase();
  if (!options.cptDescriptors && !LEVEL_II.test(code)) return null;
  const pfs = ref.pfs.get(lineKey(code, '')) ?? ref.pfs.get(lineKey(code, '26')) ?? ref.pfs.get(lineKey(code, 'TC')) ?? ref.pfs.get(lineKey(code, '53'));
  const candidates = [pfs?.description, ref.hcpcs.get(code), ref.clfs.get(lineKey(code, ''))?.shortDescription, ref.opps.get(code)?.shortDescriptor];
  return candidates.find((d): d is string => d !== undefined && d !== '') ?? null;
}
