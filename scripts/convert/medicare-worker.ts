/**
 * Worker thread of scripts/convert/medicare-data.ts: reads the reference data, posts its
 * MedicareTables (scripts/medicare/tables.ts) for the workerData input, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readMedicareReference } from '../medicare/reference-data';
import { medicareTables, type MedicareTablesInput } from '../medicare/tables';

const input = workerData as MedicareTablesInput;
try {
  parentPort!.postMessage({ ok: medicareTables(await readMedicareReference(), input) });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
