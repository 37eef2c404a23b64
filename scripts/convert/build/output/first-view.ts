/**
 * Writes `first-view.json` (contract/files/first-view.ts) into a dataset directory whose tables and
 * manifest.json are written: the worker's data service, on Node with native DuckDB through the
 * platform seam (native-database.ts) and the same SQL as the browser (workers/data-service.ts),
 * opens the directory and answers
 * firstViewRequests (every live screen's first requests); their answers are recorded, each of them
 * 200. The page shows them while DuckDB-WASM boots in the browser (docs/architecture.md, Cold
 * start). The alert list the service computed for them becomes the derived table `alerts`
 * (alerts-table.ts), and the unit pivot of their default selection the derived table `unit_pivot`
 * (unit-pivot-table.ts), which manifest.json then lists.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LiveInsurer, ServicePricingResult } from '../../../../contract/api';
import { FIRST_VIEW_FILE, FIRST_VIEW_FORMAT, firstViewBandRequest, firstViewRequests, type FirstView } from '../../../../contract/files/first-view';
import type { DatasetManifest, DerivedTableName, ManifestTable } from '../../../../contract/files/dataset';
import { memoryAckStore } from '../../../../workers/acks/ack-store';
import { computeAlerts } from '../../../../workers/api/alerts';
import { defaultPivotTable } from '../../../../workers/pricing/unit-pivot';
import { createDataService } from '../../../../workers/data-service';
import type { Database } from '../../../../workers/db/database';
import { nodePlatform } from '../../../../workers/platform-node';
import { openNativeDatabase } from './native-database';
import { writeAlertsTable } from './alerts-table';
import { writeUnitPivotTable } from './unit-pivot-table';

/** What writeFirstView wrote: first-view.json's size in bytes, and the manifest entries of `alerts` and `unit_pivot`. */
export interface FirstViewWritten {
  bytes: number;
  alerts: ManifestTable;
  /** Absent for a dataset without a snapshot (no default selection). */
  unitPivot?: ManifestTable;
}

/** A first view being prepared: its DuckDB opens while the conversion runs. */
export interface FirstViewWriter {
  /** Writes `dir/first-view.json` and the alerts table (see writeFirstView). Once only. */
  write(dir: string, createdAt: string): Promise<FirstViewWritten>;
  /** Closes the database when `write` was never called (a failed conversion). Never throws. */
  dispose(): Promise<void>;
}

/**
 * Opens the first view's DuckDB now (its thread's start, about 0.8 s, runs beside the build: the
 * open is awaited, native-database.ts), so that writing the first view at the end of a conversion
 * does not wait for it.
 */
export function startFirstView(): FirstViewWriter {
  let database: Promise<Database> | null = openNativeDatabase();
  database.catch(() => {});
  return {
    write(dir, createdAt) {
      if (!database) throw new Error('first view: already written');
      const opened = database;
      database = null;
      return writeFirstView(dir, createdAt, () => opened);
    },
    async dispose() {
      const opened = database;
      database = null;
      (await opened?.catch(() => null))?.close();
    },
  };
}

/**
 * Computes the first view of the dataset in `dir` and writes `dir/first-view.json`; returns its size
 * and the derived tables' manifest entries. `createdAt` is the manifest's `created_at`. Writes
 * `dir/alerts.parquet` and `dir/unit_pivot.parquet` too and lists them in `dir/manifest.json`
 * (`tables.alerts`, `tables.unit_pivot`), the manifest replaced by rename.
 * @throws Error naming the request when the data service cannot open the dataset or answers
 *   anything but 200: a dataset whose screens the worker cannot answer is not written.
 */
export async function writeFirstView(dir: string, createdAt: string, openDatabase: () => Promise<Database> = openNativeDatabase): Promise<FirstViewWritten> {
  const platform = { ...nodePlatform, openDatabase };
  // of the later tables only `providers` is read (the comparison's provider search, its first page)
  const service = createDataService(platform, { acks: memoryAckStore(), laterTables: ['providers'] });
  try {
    const state = await service.init({ dataUrl: dir });
    if (state.status !== 'ready') throw new Error(`first view: the data service cannot open the dataset: ${state.status === 'failed' ? state.reason : state.status}`);
    const view: FirstView = { format: FIRST_VIEW_FORMAT, created_at: createdAt, answers: [] };
    const get = async (p: string, query: Record<string, string>): Promise<unknown> => {
      const res = await service.handle({ method: 'GET', path: p, query });
      if (res.status !== 200) throw new Error(`first view: GET ${p} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const insurers = (await get('/api/insurers', {})) as LiveInsurer[];
    for (const { path: p, query, requiresNoAcknowledgements } of firstViewRequests(insurers)) {
      const body = await get(p, query);
      view.answers.push({ path: p, query, status: 200, body, ...(requiresNoAcknowledgements ? { requires_no_acknowledgements: true } : {}) });
    }
    // the bands the comparison asks for beside each first page it was answered
    for (const a of [...view.answers]) {
      if (a.path !== '/api/service-pricing') continue;
      const band = firstViewBandRequest(a.query, (a.body as ServicePricingResult).records);
      if (band) view.answers.push({ path: band.path, query: band.query, status: 200, body: await get(band.path, band.query) });
    }
    const ctx = service.context();
    if (!ctx) throw new Error('first view: the data service closed the dataset');
    if (ctx.manifest.tables.alerts || ctx.manifest.tables.unit_pivot) throw new Error('first view: manifest.json already lists a derived table');
    const alerts = await writeAlertsTable(dir, computeAlerts(ctx));
    const unitPivot = ctx.manifest.snapshots.length > 0 ? await writeUnitPivotTable(dir, defaultPivotTable(ctx)) : undefined;
    await listInManifest(dir, { alerts, ...(unitPivot ? { unit_pivot: unitPivot } : {}) });
    const text = JSON.stringify(view);
    await writeFile(path.join(dir, FIRST_VIEW_FILE), text);
    return { bytes: Buffer.byteLength(text), alerts, ...(unitPivot ? { unitPivot } : {}) };
  } finally {
    await service.close();
  }
}

/** Adds the derived tables `tables` to `dir/manifest.json`'s tables, written beside it and renamed over it. */
async function listInManifest(dir: string, tables: Partial<Record<DerivedTableName, ManifestTable>>): Promise<void> {
  const file = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as DatasetManifest;
  Object.assign(manifest.tables, tables);
  await writeFile(`${file}.tmp`, JSON.stringify(manifest, null, 2));
  await rename(`${file}.tmp`, file);
}
