/**
 * Real CPT/HCPCS codes with a Physician Fee Schedule amount, for generated benchmark files whose
 * prices the converter's validation takes as dollars (scripts/mrf/generate-large-mrf.ts `codes`).
 */
import { loadMedicareReference } from '../scripts/medicare/reference-data';

/**
 * The codes of the repository's PFS file whose global line has a non-facility and a facility
 * total above 0, in code order, each with its non-facility amount (total x conversion factor, USD).
 * @throws when the reference data cannot be read.
 */
export async function pfsCodes(): Promise<Array<{ code: string; amount: number }>> {
  const ref = await loadMedicareReference();
  const out: Array<{ code: string; amount: number }> = [];
  for (const line of ref.pfs.values()) {
    if (line.modifier === '' && line.nonFacilityTotal > 0 && line.facilityTotal > 0) {
      out.push({ code: line.code, amount: line.nonFacilityTotal * ref.conversionFactor });
    }
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
