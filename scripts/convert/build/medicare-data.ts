/**
 * The Medicare tables of a conversion (scripts/medicare/tables.ts), built once the MRFs are read,
 * from the lines of the reference files that its codes need: a few MB of heap for a dataset of a
 * few thousand codes, where the whole files parse into tens of MB that V8 would keep as RSS.
 */
import { BENCHMARK_READS } from '../../medicare/benchmark';
import { readMedicareReference } from '../../medicare/reference-data';
import { medicareTables, type MedicareTables, type MedicareTablesInput } from '../../medicare/tables';

/**
 * The tables of `input`, from the repository's reference-data/.
 * @throws Error naming the reference file (and line) when one is missing or malformed.
 */
export async function medicareData(input: MedicareTablesInput): Promise<MedicareTables> {
  try {
    return medicareTables(await readMedicareReference(undefined, new Set([...input.codes, ...BENCHMARK_READS])), input);
  } catch (e) {
    throw new Error(`Medicare reference data: ${e instanceof Error ? e.message : String(e)}`);
  }
}
