/**
 * The working tables of a conversion from a loaded spool, as scripts/convert/index.ts builds them
 * before the buckets: build-tables.ts, then the benchmark and validation tables (validation.ts),
 * with the repository's CMS reference data.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_VALIDATION, type ValidationSettings } from '../../contract/files/dataset';
import { buildTables, type TableInputs } from '../../scripts/convert/build/build-tables';
import { prepareValidation } from '../../scripts/convert/build/validation';
import { loadMedicareReference } from '../../scripts/medicare/reference-data';
import { medicareTables } from '../../scripts/medicare/tables';

/** buildTables then prepareValidation; `validation` overrides the default settings. */
export async function buildWorkingTables(
  con: DuckDBConnection,
  inputs: Omit<TableInputs, 'medicare'> & { validation?: Partial<ValidationSettings> },
): Promise<void> {
  const codes = (await con.runAndReadAll(`SELECT DISTINCT billing_code FROM raw_items WHERE billing_code_type IN ('CPT', 'HCPCS')`))
    .getRows().map((r) => String(r[0]));
  const medicare = medicareTables(await loadMedicareReference(), { codes, cptDescriptors: true });
  await buildTables(con, { ...inputs, medicare });
  await prepareValidation(con, medicare, { ...DEFAULT_VALIDATION, ...inputs.validation });
}
