/**
 * The Medicare tables of a conversion (scripts/medicare/tables.ts), built in a worker thread once
 * the MRFs are read: parsing the reference files takes ~70 MB of heap, which V8 keeps as RSS once
 * used; in a thread that ends, it goes, and the converter's peak memory stays that of its own
 * phases. Read beside the MRFs instead, its heap would add ~100 MB to the parse phase's peak.
 */
import { Worker } from 'node:worker_threads';
import type { MedicareTables, MedicareTablesInput } from '../medicare/tables';

/**
 * The tables of `input`.
 * @throws Error naming the reference file when one is missing or malformed.
 */
export function medicareData(input: MedicareTablesInput): Promise<MedicareTables> {
  const url = new URL('./medicare-worker' + (import.meta.url.endsWith('.ts') ? '.ts' : '.js'), import.meta.url);
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(import.meta.url)}))`,
      { eval: true, workerData: input })
    : new Worker(url, { workerData: input });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { ok?: MedicareTables; error?: string }) => {
      void worker.terminate();
      if (m.ok) resolve(m.ok);
      else reject(new Error(`Medicare reference data: ${m.error ?? 'unknown error'}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`Medicare reference data: its thread exited with ${code}`)));
  });
}
