/**
 * What a conversion needs of the Medicare reference data, as plain rows: the benchmark of every
 * comparison unit of its codes, the codes the OPPS pays, every ZIP's locality and GPCIs, and its
 * codes' descriptors (docs/methodology.md, Medicare benchmark, Names and categories), built by
 * scripts/convert/build/medicare-data.ts from the reference lines of those codes.
 */
import { benchmarkTable, localityOfZip, serviceDescriptor, type MedicareBenchmark } from './benchmark';
import type { MedicareReference } from './reference-data';

/** The input: the dataset's CPT/HCPCS codes and whether CPT descriptors may name them. */
export interface MedicareTablesInput {
  codes: string[];
  cptDescriptors: boolean;
}

/** A ZIP's Medicare locality (`<carrier>-<locality>`) and its GPCIs. */
export interface ZipLocalityRow {
  zip: string;
  locality: string;
  work: number;
  pe: number;
  mp: number;
}

/** The rows of MedicareTablesInput's codes (see the module). */
export interface MedicareTables {
  year: number;
  /** USD per RVU. */
  conversionFactor: number;
  files: Array<{ name: string; bytes: number; sha256: string }>;
  notices: string[];
  benchmarks: MedicareBenchmark[];
  /** Codes whose OPPS Addendum B payment rate is above 0. */
  oppsPaid: string[];
  /** Every ZIP of the ZIP5 file whose locality needs no ZIP+4. */
  zipLocalities: ZipLocalityRow[];
  /** [code, descriptor] of the codes that have one. */
  descriptors: Array<[string, string]>;
}

/** ZipLocalityRow of every ZIP of a ZIP5 map, kept with the GPCI map they were computed with. */
const zipRows = new WeakMap<MedicareReference['zip5'], { gpci: MedicareReference['gpci']; rows: ZipLocalityRow[] }>();

/**
 * Every ZIP's locality and GPCIs (localityOfZip), computed once for the same ZIP5 and GPCI maps
 * (reference-data.ts keeps them while their files are unchanged).
 */
function zipLocalitiesOf(ref: MedicareReference): ZipLocalityRow[] {
  const kept = zipRows.get(ref.zip5);
  if (kept?.gpci === ref.gpci) return kept.rows;
  const rows: ZipLocalityRow[] = [];
  for (const zip of ref.zip5.keys()) {
    const at = localityOfZip(ref, zip);
    if (at) rows.push({ zip, locality: `${at.carrier}-${at.locality}`, work: at.gpci.work, pe: at.gpci.pe, mp: at.gpci.mp });
  }
  zipRows.set(ref.zip5, { gpci: ref.gpci, rows });
  return rows;
}

/** The tables of `input` from loaded reference data `ref`. The rows are shared between calls: read only. */
export function medicareTables(ref: MedicareReference, input: MedicareTablesInput): MedicareTables {
  const zipLocalities = zipLocalitiesOf(ref);
  const descriptors: Array<[string, string]> = [];
  for (const code of input.codes) {
    const d = serviceDescriptor(ref, code, { cptDescriptors: input.cptDescriptors });
    if (d !== null) descriptors.push([code, d]);
  }
  return {
    year: ref.year,
    conversionFactor: ref.conversionFactor,
    files: ref.files.map((f) => ({ name: f.name, bytes: f.bytes, sha256: f.sha256 })),
    notices: ref.notices,
    benchmarks: benchmarkTable(ref, input.codes),
    oppsPaid: input.codes.filter((c) => (ref.opps.get(c)?.paymentRate ?? 0) > 0),
    zipLocalities,
    descriptors,
  };
}
