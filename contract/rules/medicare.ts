/**
 * Medicare benchmark rules of docs/methodology.md "Medicare benchmark" that need no reference files: the
 * component and setting of a rate row, and the locality (GPCI-adjusted) Physician Fee Schedule
 * amount. Pure: used by the converter (Node) and the browser alike. The reference data itself is
 * read by scripts/medicare/reference-data.ts; the national amounts are in scripts/medicare/benchmark.ts.
 */
import { roundHalfAway } from './format';

/**
 * Place-of-service codes (CMS POS code set, two digits) that are facility settings for the
 * Physician Fee Schedule: a professional or `both` row whose every service code is one of these
 * is priced with the PFS FACILITY TOTAL, any other row with the NON-FACILITY TOTAL.
 */
export const FACILITY_PLACES_OF_SERVICE = [
  '02', '19', '21', '22', '23', '24', '26', '31', '34', '41', '42', '51', '52', '53', '56', '61',
] as const;

const FACILITY_POS: ReadonlySet<string> = new Set(FACILITY_PLACES_OF_SERVICE);

/**
 * PFS component of a rate row: `26` (professional component, the PFS line with modifier 26), `TC`
 * (technical component, the line with modifier TC) or `global` (the line without modifier).
 */
export type Component = 'global' | '26' | 'TC';

/** PFS setting of a rate row: which total (FACILITY TOTAL or NON-FACILITY TOTAL) prices it. */
export type UnitSetting = 'facility' | 'non-facility';

/**
 * Component of a rate row from its modifiers (comma-separated, upper case, '' when none):
 * `26` when they include 26, else `TC` when they include TC, else `global`.
 * `componentOf('26,59')` = '26'; `componentOf('')` = 'global'.
 */
export function componentOf(modifiers: string): Component {
  const list = modifiers.split(',').map((m) => m.trim().toUpperCase());
  if (list.includes('26')) return '26';
  if (list.includes('TC')) return 'TC';
  return 'global';
}

/**
 * Setting of a rate row. `institutional` rows: always `facility`. Professional and `both` rows (and
 * any other billing class): `facility` when the row's place-of-service codes (comma-separated
 * two-digit codes, '' when none) are non-empty and every one is in FACILITY_PLACES_OF_SERVICE,
 * else `non-facility` (an empty list too). `settingOf('professional', '21')` = 'facility',
 * `settingOf('professional', '11,21')` = 'non-facility'.
 */
export function settingOf(billingClass: string, serviceCodes: string): UnitSetting {
  if (billingClass.trim().toLowerCase() === 'institutional') return 'facility';
  const codes = serviceCodes.split(',').map((c) => c.trim()).filter((c) => c !== '');
  return codes.length > 0 && codes.every((c) => FACILITY_POS.has(c)) ? 'facility' : 'non-facility';
}

/**
 * Geographic practice cost indices of one Medicare locality (GPCI file, "PW GPCI (with 1.0 Floor)",
 * "PE GPCI" and "MP GPCI" columns): dimensionless multipliers of the work, practice expense and
 * malpractice RVUs.
 */
export interface LocalityGpci {
  work: number;
  pe: number;
  mp: number;
}

/**
 * Relative value units of one PFS line (relative value file): WORK RVU, the PE RVU of the row's
 * setting (NON-FAC PE RVU or FACILITY PE RVU) and MP RVU.
 */
export interface PfsRvus {
  work_rvu: number;
  pe_rvu: number;
  mp_rvu: number;
}

/**
 * Locality PFS amount in USD, rounded half away from zero to the cent:
 * (work RVU x work GPCI + PE RVU x PE GPCI + MP RVU x MP GPCI) x conversion factor (USD per RVU;
 * 32.3465 in 2025). For PFS amounts only: CLFS and OPPS amounts are national.
 */
export function localityAmount(rvus: PfsRvus, gpci: LocalityGpci, conversionFactor: number): number {
  const units = rvus.work_rvu * gpci.work + rvus.pe_rvu * gpci.pe + rvus.mp_rvu * gpci.mp;
  return roundHalfAway(units * conversionFactor, 2);
}
