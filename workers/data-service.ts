/**
 * The data worker's logic, independent of where it runs: `init(config)` boots once behind one
 * promise (`ready ??= open()`), `handle(request)` answers /api requests through the registry
 * (docs/architecture.md), `openLocal(files)` checks an auditor's snapshot and switches to it.
 * data-worker.ts exposes it with comlink in the browser; tests call it directly on the Node platform.
 */
import type { ApiRequest, ApiResponse } from '../contract/api';
import { isManifestRequest } from '../contract/api';
import { TABLE_NAMES, type DatasetManifest, type DerivedTableName, type TableName } from '../contract/files/dataset';
import type { BootState, DataWorkerApi, HashProgress, LocalFile, LocalOpenResult, WorkerConfig } from '../contract/api';
import { DatabaseError, SourceError } from './db/errors';
import type { Database } from './db/database';
import { fetchTable, insertTable, onFirstUse, type TableBytes } from './db/load';
import { prepareDerivedTables } from './db/prepare-tables';
import { createProviderGroupsLoader, eagerProviderGroups, groupsBySource } from './db/provider-groups';
import { createRatesLoader } from './db/rates';
import { warmDefaultSelection } from './pricing/selection-tables';
import { offerStoredPivot, forgetSelections } from './pricing/unit-pivot';
import { createStatsLoader, eagerStats, openStatsFile, statsByMonth } from './db/stats';
import type { ApiContext, DatasetOrigin } from './context';
import { datasetInfo } from './api/dataset';
import { errorResponse } from './api/errors';
import { dispatch, type Active } from './api/registry';
import { ResultMemo } from './memo';
import { defaultAckStore, type AckStore } from './acks/ack-store';
import { localIndex, localSource } from './local/local-source';
import { SnapshotProblem, verifyLocal } from './local/verify-local';
import { parseManifest } from './manifest';
import { countingSource, type ByteSource, type ParquetToIpc, type Platform } from './platform';

export { parseManifest } from './manifest';

/**
 * Tables loaded at boot: all but `rates`, which loads by billing code on demand (docs/architecture.md),
 * and `billing_providers`, which loads on the first request "where we bill it" reads from rate rows
 * (ApiContext.billingProviders: a real insurer's claims by provider are tens of megabytes that
 * most sessions never read); `provider_groups` too when it has no source index (LATER_TABLES).
 */
export const BOOT_TABLES: readonly TableName[] = TABLE_NAMES.filter((t) => t !== 'rates' && t !== 'billing_providers');

/** Timings of the last boot, in milliseconds since `init` (for benchmarks and the report). */
export interface BootTimings {
  manifest: number;
  database: number;
  /** Ready: FIRST_TABLES loaded. */
  total: number;
  /** Every boot table loaded (LATER_TABLES too); null until then. */
  allTables: number | null;
}

export interface DataService extends DataWorkerApi {
  /** Boot timings once ready, else null. */
  timings(): BootTimings | null;
  /** Forgets the answers and unit pivots kept for the open dataset (benchmarks time the computation with it). */
  forgetAnswers(): void;
  /** The open dataset's context once ready, else undefined (tests call an endpoint's parts on it). */
  context(): ApiContext | undefined;
  /** Bytes read from the open dataset so far (boot tables plus rate row groups), or 0. */
  bytesRead(): number;
  /**
   * Settles once the open dataset's work behind its first answers is done: the later tables, the
   * latest month's national statistics and, with `warmSelection`, the default selection's warm-up
   * (tests and benchmarks wait for it). Never rejects.
   */
  background(): Promise<void>;
  /** Closes DuckDB (tests). */
  close(): Promise<void>;
}

export interface DataServiceOptions {
  /** Where acknowledgements live; default IndexedDB when present, else memory. */
  acks?: AckStore;
  /**
   * Which of the tables the statistics' endpoints do not read (LATER_TABLES) load behind the first
   * answers: all (true, the default), none (false) or those listed. An endpoint reading one not
   * loaded fails with DuckDB's error. The converter's first view (scripts/convert/build/output/first-view.ts)
   * loads `providers` only: none of its other requests reads a later table.
   */
  laterTables?: boolean | readonly TableName[];
  /**
   * Whether the worker prices the screens' default selection once the later tables are in and no
   * request has done it (selection-tables.ts warmDefaultSelection), then loads the latest month's
   * provider groups (db/provider-groups.ts); default false. The browser's worker sets it: the
   * dashboard and the comparison open from the first view, and their first filter then finds the
   * month's unit pivot built, their first rate rows dialog the month's provider groups in.
   */
  warmSelection?: boolean;
}

/**
 * The tables loaded before the service reports ready: the ones the statistics' endpoints read
 * (the endpoints declaring `reads: 'first-tables'`, registry.ts STATS_ROUTES: the dashboards, the
 * trend, the alerts, the service search).
 */
export const FIRST_TABLES: readonly TableName[] = ['services', 'claims_volume', 'price_stats'];

/**
 * What ctx.memo keeps (api/memo.ts), in answer rows: two national pricing passes of the real-file
 * shape (40,000 units each, about 1.4 KB a record on the heap) or their worth of smaller answers.
 */
export const MEMO_CAPACITY = 100_000;

/**
 * The boot tables loaded behind the first answers, `provider_groups` (the largest) last: an
 * endpoint that names the tables it reads (endpoint.ts `reads`, the provider searches) waits only for those; every other one
 * waits for them all. `provider_groups` is one of them only in a dataset without its source index:
 * otherwise it loads by source when a request asks (db/provider-groups.ts).
 */
export const LATER_TABLES: readonly TableName[] = BOOT_TABLES.filter((t) => !FIRST_TABLES.includes(t))
  .sort((a, b) => Number(a === 'provider_groups') - Number(b === 'provider_groups'));

function failure(e: unknown): BootState & { status: 'failed' } {
  const reason = e instanceof Error ? e.message : String(e);
  return e instanceof SourceError && e.httpStatus !== undefined
    ? { status: 'failed', reason, httpStatus: e.httpStatus }
    : { status: 'failed', reason };
}

interface Opened {
  state: BootState;
  ctx?: ApiContext;
  timings?: BootTimings;
  /** Settles once the boot's work behind the first answers is done (DataService.background). */
  background?: Promise<void>;
}

/** Creates the service on a platform (browser or Node). Nothing starts before `init`. */
export function createDataService(platform: Platform, options: DataServiceOptions = {}): DataService {
  let ready: Promise<Opened> | undefined;
  /** The settled value of `ready`, for the synchronous accessors. */
  let latest: Opened | undefined;
  /** What the first `init` returns, the same promise to every caller. */
  let booted: Promise<BootState> | undefined;
  let acks: AckStore | undefined = options.acks;
  /**
   * Requests being answered (from handle to their answer), and those of them whose endpoint is at
   * work (its tables in: registry.ts Active). Background work waits for them: the later tables'
   * inserts for no endpoint at work, the warm-up for no request at all.
   */
  const load = { inFlight: 0, active: 0 };
  let waiters: Array<() => void> = [];
  const settled = (): void => {
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
  };
  const active: Active = (delta) => {
    load.active += delta;
    if (load.active === 0) settled();
  };

  /** Resolves in a task of its own once `free()` holds. */
  function when(free: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (free()) resolve();
        else waiters.push(() => setTimeout(check, 0));
      };
      setTimeout(check, 0);
    });
  }
  const whenIdle = (): Promise<void> => when(() => load.inFlight === 0);
  const whenNoneActive = (): Promise<void> => when(() => load.active === 0);

  /**
   * The first dataset's manifest and origin, once the manifest is read: `GET /api/dataset` is
   * answered from it while DuckDB boots (handle). Never settles when the manifest cannot be read.
   */
  let early: Promise<{ manifest: DatasetManifest; dataset: DatasetOrigin }> | undefined;

  /**
   * Boots a dataset from `raw` into a new DuckDB; `onManifest` is told the manifest once it is
   * read. Never rejects.
   */
  async function open(raw: ByteSource, origin: 'server' | 'local', name: string,
    onManifest?: (manifest: DatasetManifest, dataset: DatasetOrigin) => void): Promise<Opened> {
    const t0 = performance.now();
    const counter = { bytes: 0 };
    const source = countingSource(raw, counter);
    // DuckDB's boot and the first fetches each cost about a second: start both now (docs/architecture.md).
    const dbOpening = platform.openDatabase();
    dbOpening.catch(() => {});
    try {
      const database = dbOpening.then((db) => ({ db, at: performance.now() - t0 }));
      const decoder = platform.parquetDecoder();
      const rowGroups = platform.parquetRowGroups();
      decoder.catch(() => {});
      rowGroups.catch(() => {});
      const manifest = parseManifest(await source.read('manifest.json'));
      const manifestAt = performance.now() - t0;
      onManifest?.(manifest, { origin, name, bytesRead: () => counter.bytes });
      const derived = new Map<DerivedTableName, Promise<Uint8Array>>();
      const slicer = platform.parquetSlicer();
      slicer.catch(() => {});
      const readDerived = async (name: DerivedTableName, offset: number, limit?: number): Promise<Uint8Array> => {
        const table = manifest.tables[name];
        if (!table?.files[0] || table.files.length !== 1) throw new Error(`manifest.json lists no table ${name} of one file`);
        const file = table.files[0];
        let bytes = derived.get(name);
        if (!bytes) {
          bytes = source.read(file);
          derived.set(name, bytes);
          bytes.catch(() => derived.delete(name));
        }
        const [slice, parquet] = await Promise.all([slicer, bytes]);
        try {
          return slice(parquet, offset, limit);
        } catch (e) {
          throw new DatabaseError(`cannot decode ${file}: ${e instanceof Error ? e.message : String(e)}`);
        }
      };
      // the stored unit pivot of the default selection (api/unit-pivot.ts offerStoredPivot): what a
      // comparison's filters read, without price_stats
      const storedPivot = manifest.tables.unit_pivot ? readDerived('unit_pivot', 0) : null;
      storedPivot?.catch(() => {});
      const fetchAll = (names: readonly TableName[]) => Promise.all(names.map((t) => fetchTable(source, t, manifest.tables[t].files)));
      // price_stats by month when the converter indexed it (db/stats.ts): the latest month's row groups only
      const statsTable = manifest.tables.price_stats;
      const byMonth = statsByMonth(statsTable);
      // its footer needs parquet-wasm only: read while DuckDB boots, not after
      const statsOpening = byMonth ? openStatsFile(statsTable, source, rowGroups) : undefined;
      statsOpening?.catch(() => {});
      const fetched = fetchAll(byMonth ? FIRST_TABLES.filter((t) => t !== 'price_stats') : FIRST_TABLES);
      // the later tables' bytes come in beside the first ones; they are decoded once those answer
      const wanted = options.laterTables ?? true;
      // provider_groups by source when the converter indexed it (db/provider-groups.ts): no boot load
      const groupsTable = manifest.tables.provider_groups;
      const bySource = groupsBySource(groupsTable);
      const laterWanted = (typeof wanted === 'boolean' ? (wanted ? LATER_TABLES : []) : LATER_TABLES.filter((t) => wanted.includes(t)))
        .filter((t) => !(bySource && t === 'provider_groups'));
      const laterFetched = fetchAll(laterWanted);
      laterFetched.catch(() => {});
      const [{ db, at }, decode, tables] = await Promise.all([database, decoder, fetched]);
      for (const table of tables) await insertTable(db, decode, table);
      const latestMonth = manifest.snapshots[manifest.snapshots.length - 1];
      const first = latestMonth === undefined ? undefined : ({ months: [latestMonth], scope: 'market', states: 'national' } as const);
      const stats = byMonth ? createStatsLoader(db, statsTable, source, rowGroups, first, statsOpening) : eagerStats();
      await stats.open();
      prepareDerivedTables(db, byMonth);
      const rates = createRatesLoader(db, manifest.tables.rates, source, rowGroups);
      const providerGroups = bySource
        ? createProviderGroupsLoader(db, manifest, groupsTable, source, rowGroups)
        : eagerProviderGroups();
      acks ??= defaultAckStore();
      const timings: BootTimings = { manifest: manifestAt, database: at, total: performance.now() - t0, allTables: null };
      const loaded = insertLater(db, decode, laterFetched, laterWanted);
      const laterLoaded = Promise.all(loaded.values()).then(() => {
        if (loaded.size > 0) timings.allTables = performance.now() - t0;
      });
      laterLoaded.catch(() => {});
      const tableLoaded = (t: TableName): Promise<void> => loaded.get(t) ?? Promise.resolve();
      // Behind the later tables (what Live Search and a provider's screens wait for), the latest
      // month's national market rows: what a comparison or a dashboard with filters reads. The
      // per-state rows, several times as many, load when a request asks for them (the map, a state).
      // A request that reads price_stats meanwhile loads these first itself (createStatsLoader's
      // `first`), so nothing waits for this but the warm-up.
      const national = laterLoaded.then(() => (first === undefined ? undefined : stats.ensure(first)));
      national.catch(() => {});
      const billingProviders = onFirstUse(db, decode, source, 'billing_providers', manifest.tables.billing_providers.files);
      const ctx: ApiContext = {
        db, manifest, rates, stats, providerGroups, acks, laterTables: laterLoaded, tableLoaded, memo: new ResultMemo(MEMO_CAPACITY), readDerived,
        billingProviders,
        dataset: { origin, name, bytesRead: () => counter.bytes, readFile: (f) => source.read(f) },
      };
      if (storedPivot) {
        offerStoredPivot(ctx, await storedPivot);
        derived.delete('unit_pivot');
        timings.total = performance.now() - t0;
      }
      // Only while no request is being answered: the warm-up holds the worker for a second or two
      // at the real-file shape, and a request met meanwhile (Live Search's rate rows) would wait.
      const background = options.warmSelection
        ? national.then(() => whenIdle()).then(() => warmDefaultSelection(ctx))
          .then(() => whenIdle()).then(() => (latestMonth === undefined ? undefined : providerGroups.ensureMonths([latestMonth])))
        : national;
      return {
        ctx,
        timings,
        background: background.then(() => undefined, () => undefined),
        state: { status: 'ready', createdAt: manifest.created_at, snapshots: manifest.snapshots, referenceInsurer: manifest.reference_insurer, origin },
      };
    } catch (e) {
      (await dbOpening.catch(() => null))?.close();
      return { state: failure(e) };
    }
  }

  /**
   * Inserts the later tables `names` (fetched in that order) one after the other, one row group
   * per task, each once no endpoint is at work, so that requests for the first tables, met
   * meanwhile, are answered first. Returns each table's insert: it settles once that table is in,
   * and rejects with the first table of `names` that fails to load (the ones after it too).
   */
  function insertLater(db: Database, decode: ParquetToIpc, fetched: Promise<TableBytes[]>, names: readonly TableName[]): Map<TableName, Promise<void>> {
    const loaded = new Map<TableName, Promise<void>>();
    let previous: Promise<unknown> = fetched;
    names.forEach((name, k) => {
      const inserted = previous.then(async () => {
        await whenNoneActive();
        await insertTable(db, decode, (await fetched)[k]!, whenNoneActive);
      });
      inserted.catch(() => {});
      loaded.set(name, inserted);
      previous = inserted;
    });
    return loaded;
  }

  /** One request's answer (handle counts it in flight). Never rejects. */
  async function answerRequest(request: ApiRequest): Promise<ApiResponse> {
    // before the first boot settles, the dataset screen's facts come from the manifest alone
    if (!latest && early && ready && isManifestRequest(request)) {
      const read = await Promise.race([early, ready.then(() => null)]);
      if (read && !latest) return { status: 200, body: datasetInfo(read.manifest, read.dataset, 0) };
    }
    const opened = await current();
    if (!opened) return errorResponse(503, 'unavailable', 'dataset not loaded: init was not called');
    const { state, ctx } = opened;
    if (state.status === 'failed' || !ctx) {
      const reason = state.status === 'failed' ? state.reason : 'dataset not loaded';
      if (state.status === 'failed' && state.httpStatus === 401) return errorResponse(401, 'unauthorized', reason);
      return errorResponse(503, 'unavailable', `dataset not loaded: ${reason}`);
    }
    return dispatch(request, ctx, active);
  }

  async function current(): Promise<Opened | undefined> {
    return ready ? await ready : undefined;
  }

  return {
    init(config: WorkerConfig): Promise<BootState> {
      if (!ready) {
        let told: (e: Awaited<NonNullable<typeof early>>) => void = () => {};
        early = new Promise((resolve) => (told = resolve));
        ready = open(platform.source(config.dataUrl), platform.origin, config.dataUrl, (manifest, dataset) => told({ manifest, dataset }))
          .then((o) => (latest = o));
      }
      booted ??= ready.then((o) => o.state);
      return booted;
    },
    async handle(request: ApiRequest): Promise<ApiResponse> {
      load.inFlight++;
      try {
        return await answerRequest(request);
      } finally {
        if (--load.inFlight === 0) settled();
      }
    },
    async openLocal(files: LocalFile[], onProgress?: (p: HashProgress) => void): Promise<LocalOpenResult> {
      const { byPath, dirName } = localIndex(files);
      try {
        await verifyLocal(byPath, onProgress);
      } catch (e) {
        if (e instanceof SnapshotProblem) return { ok: false, file: e.file, problem: e.problem };
        return { ok: false, file: 'manifest.json', problem: e instanceof Error ? e.message : String(e) };
      }
      let opened = await open(localSource(byPath), 'local', dirName || 'local files');
      // Every table must load before the switch, not only the first ones.
      const later = await opened.ctx?.laterTables.then(() => null, (e: unknown) => e);
      if (later) {
        opened.ctx?.db.close();
        opened = { state: failure(later) };
      }
      if (opened.state.status !== 'ready') {
        const reason = opened.state.status === 'failed' ? opened.state.reason : 'not loaded';
        const file = /(?:decode|read) ([^:]+):/.exec(reason)?.[1] ?? 'dataset';
        return { ok: false, file, problem: reason };
      }
      // Switch only now: a wrong snapshot leaves the dataset in use untouched.
      const previous = await current();
      ready = Promise.resolve(opened);
      latest = opened;
      previous?.ctx?.db.close();
      return { ok: true, state: opened.state };
    },
    timings: () => latest?.timings ?? null,
    forgetAnswers: () => {
      const ctx = latest?.ctx;
      if (!ctx) return;
      ctx.memo.clear();
      forgetSelections(ctx);
    },
    context: () => latest?.ctx,
    bytesRead: () => latest?.ctx?.dataset.bytesRead() ?? 0,
    background: async () => {
      await (await current())?.background;
    },
    async close(): Promise<void> {
      (await current())?.ctx?.db.close();
    },
  };
}
