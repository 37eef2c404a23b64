/**
 * The converter past one machine (docs/deployment.md): the ingest stage as BullMQ jobs over Redis.
 * `npm run convert -- --redis <url>` enqueues the plan's files as one flow whose children are the
 * ingests (queue INGEST_QUEUE, any number of `npm run worker` processes on any machines take them)
 * and whose parent is the build, taken by the producer itself once every child is done (its own
 * queue, so that concurrent runs never take each other's build). Partitions go to a store every
 * worker and the producer see (a shared file system).
 *
 * What BullMQ gives and Compete does not rewrite: retries with exponential back-off (INGEST_ATTEMPTS),
 * the recovery of the jobs of a worker that dies (a job whose lock is not renewed within the lock
 * duration is stalled and moved back to wait for another worker), and the parent released when its
 * children are done, a child that failed for good included (`ignoreDependencyOnFailure`, its
 * reason kept for report.json). An ingest is idempotent: a worker first looks for the file's
 * partition (ingest-file.ts reusablePartition), and a partition is renamed into place whole, so a job
 * run twice after a crash still writes the file's partition once.
 */
import { randomUUID } from 'node:crypto';
import { FlowProducer, Job, Queue, UnrecoverableError, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import cliProgress from 'cli-progress';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../plan/fetch-policy';
import { ingestFile, reusablePartition, type IngestContext } from './ingest-file';
import { ParsePool } from './parse-pool';
import { openSpoolHost } from '../spool/spool-host';
import type { PlannedFile } from '../plan/plan-files';
import { RemoteReferenceResolver } from './remote-references';
import { findPartitions, sameSettings, type IdentityCheck, type IngestSettings, type StoredPartition } from '../store/source-store';
import { MrfReadError } from '../../mrf/types';
import { formatSize } from '../../../contract/rules/format';

/** The queue of ingest jobs every worker takes from. */
export const INGEST_QUEUE = 'compete-ingest';

/** Attempts of an ingest job before it fails for good (network errors, a dead worker's job). */
export const INGEST_ATTEMPTS = 3;

/** The first retry's delay, ms; each next one doubles it. */
export const INGEST_BACKOFF_MS = 2_000;

/** An ingest job's data (JSON). */
export interface IngestJobData {
  file: PlannedFile;
  /** The store's directory, as every worker sees it. */
  store: string;
  settings: IngestSettings;
  /** The catalog's billing-code filter; null without one. */
  billingCodes: string[] | null;
  remoteReferences: boolean;
  referenceCacheDir?: string;
  /** The HTTP client's numbers (fetch-policy.ts FetchPolicy without its fetch function). */
  fetchPolicy: Omit<FetchPolicy, 'fetch'>;
  splitBytes?: number;
}

/** An ingest job's result. */
export interface IngestJobResult {
  dir: string;
  /** The partition was there and the file unchanged. */
  reused: boolean;
  by?: IdentityCheck;
  /** The file's stored bytes. */
  bytes: number;
}

/** How long the first contact with Redis may take before the command gives up, ms. */
export const REDIS_CONNECT_MS = 10_000;

/**
 * A Redis connection for BullMQ (`maxRetriesPerRequest: null`, which its blocking commands need:
 * once connected, a lost connection is waited for, not failed), answering a PING first.
 * @throws Error `cannot reach Redis at <url>: <reason>` when it does not answer within REDIS_CONNECT_MS.
 */
export async function connectRedis(url: string): Promise<Redis> {
  let redis: Redis;
  try {
    redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  } catch (e) {
    throw new Error(`cannot reach Redis at ${url}: ${(e as Error).message}`);
  }
  let last = 'no answer';
  redis.on('error', (e: Error) => void (last = e.message));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(last)), REDIS_CONNECT_MS))),
    ]);
    return redis;
  } catch (e) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${url}: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Options of `npm run worker`. */
export interface WorkerOptions {
  /** Parser threads per ingest (default: the cores). */
  jobs?: number;
  /** Ingests at once in this process (default 1: one file uses every core). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal before it is stalled and given to another worker, ms (default 30000). */
  lockMs?: number;
  quiet?: boolean;
  log?: (line: string) => void;
}

/** A running worker; `close()` waits for its current job. */
export interface IngestWorker {
  worker: Worker<IngestJobData, IngestJobResult>;
  close(): Promise<void>;
}

/**
 * Starts a worker taking ingest jobs from Redis at `url`. Each job: the file's partition reused
 * when unchanged, else the file ingested (ingest-file.ts ingestFile). A file that is not a readable
 * in-network file fails at once (UnrecoverableError: retrying cannot mend it); other errors
 * (network, time-outs) are retried by BullMQ.
 * @throws when Redis cannot be reached.
 */
export async function startIngestWorker(url: string, o: WorkerOptions = {}): Promise<IngestWorker> {
  const log = o.quiet ? () => {} : (o.log ?? ((l: string) => process.stderr.write(l + '\n')));
  const connection = await connectRedis(url);
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'compete-worker-'));
  // one DuckDB instance for the process's life: each job's spool is a database attached to it
  const spools = await openSpoolHost(workDir);
  // one pool per billing-code filter: its threads know the filter
  let pool: { key: string | null; pool: ParsePool } | null = null;
  const poolFor = async (codes: string[] | null, key: string | null): Promise<ParsePool> => {
    if (pool && pool.key === key) return pool.pool;
    await pool?.pool.close();
    pool = { key, pool: new ParsePool(o.jobs ?? os.availableParallelism(), codes ? new Set(codes) : undefined) };
    return pool.pool;
  };
  const lockMs = o.lockMs ?? 30_000;
  const worker = new Worker<IngestJobData, IngestJobResult>(INGEST_QUEUE, async (job) => {
    const d = job.data;
    const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, ...d.fetchPolicy };
    const c: IngestContext = {
      store: d.store,
      pool: await poolFor(d.billingCodes, d.settings.billing_codes),
      spools,
      billingCodes: d.billingCodes ? new Set(d.billingCodes) : undefined,
      settings: d.settings,
      policy,
      remote: d.remoteReferences ? new RemoteReferenceResolver(policy, d.referenceCacheDir) : null,
      splitBytes: d.splitBytes,
      workDir,
      quiet: true,
      log,
    };
    log(`start ${d.file.url} (job ${job.id}, attempt ${job.attemptsMade + 1})`);
    const reuse = await reusablePartition(c, d.file);
    if (reuse) {
      log(`reused ${d.file.url}`);
      return { dir: reuse.dir, reused: true, by: reuse.by, bytes: reuse.record.identity.bytes };
    }
    try {
      const part = await ingestFile(c, d.file);
      log(`ingested ${d.file.url}`);
      return { dir: part.dir, reused: false, bytes: part.record.identity.bytes };
    } catch (e) {
      // a broken file stays broken; a fetch that failed may succeed on the next attempt
      if (e instanceof MrfReadError && !/cannot fetch/.test(e.message)) throw new UnrecoverableError(e.message);
      throw e;
    }
  }, { connection: connection as unknown as ConnectionOptions, concurrency: o.concurrency ?? 1, lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 2 });
  worker.on('failed', (job, e) => log(`failed ${job?.data.file.url ?? '?'}: ${e.message}`));
  const close = async (): Promise<void> => {
    try {
      await worker.close();
      await pool?.pool.close();
    } finally {
      spools.close();
      connection.disconnect();
      await rm(workDir, { recursive: true, force: true });
    }
  };
  try {
    await worker.waitUntilReady();
  } catch (e) {
    // a worker that never started leaves neither its DuckDB instance nor its work directory
    await close().catch(() => {});
    throw e;
  }
  return {
    worker,
    close,
  };
}

/** What the distributed ingest of a plan gave, per planned file (null: failed for good, with its reason). */
export interface DistributedIngest {
  parts: Array<(StoredPartition & { reused: boolean }) | null>;
  failures: Array<{ file: string; reason: string }>;
}

/**
 * The producer's side: enqueues `files` as one flow (ingest children, a build parent on a queue of
 * this run's own), shows a progress bar (sources and bytes done, failed, ETA), and resolves once
 * the build parent is released, with each file's partition; `build` runs as the parent job.
 * @throws when Redis cannot be reached, or a partition a job reported is missing.
 */
export async function ingestDistributed<T>(url: string, files: readonly PlannedFile[], job: (file: PlannedFile) => IngestJobData,
  o: { quiet: boolean; log: (line: string) => void; pollMs?: number }, build: (r: DistributedIngest) => Promise<T>): Promise<T> {
  const connection = await connectRedis(url);
  const run = randomUUID();
  const buildQueue = `compete-build-${run}`;
  const flow = new FlowProducer({ connection: connection as unknown as ConnectionOptions });
  let worker: Worker | null = null;
  const bar = o.quiet || !process.stderr.isTTY ? null : new cliProgress.SingleBar({
    stream: process.stderr,
    format: 'ingest [{bar}] {value}/{total} sources | {size} | {failed} failed | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: true,
  }, cliProgress.Presets.shades_classic);
  let timer: NodeJS.Timeout | null = null;
  try {
    const ids = files.map((_, k) => `${run}-${k}`);
    const tree = await flow.add({
      name: 'build',
      queueName: buildQueue,
      data: { files: files.length },
      children: files.map((file, k) => ({
        name: 'ingest',
        queueName: INGEST_QUEUE,
        data: job(file),
        opts: {
          jobId: ids[k],
          attempts: INGEST_ATTEMPTS,
          backoff: { type: 'exponential', delay: INGEST_BACKOFF_MS },
          ignoreDependencyOnFailure: true,
          removeOnComplete: { age: 7 * 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })),
    });
    o.log(`${files.length} sources queued on ${INGEST_QUEUE} (run ${run}); waiting for workers (npm run worker -- --redis ${url})`);
    bar?.start(files.length, 0, { size: formatSize(0), failed: 0 });
    const parent = tree.job;
    timer = setInterval(() => {
      void (async () => {
        const deps = await parent.getDependencies({ processed: { count: files.length }, ignored: { count: files.length } });
        const done = Object.values(deps.processed ?? {}) as unknown[];
        const bytes = done.reduce<number>((a, v) => a + (typeof v === 'string' ? (JSON.parse(v) as IngestJobResult).bytes : (v as IngestJobResult).bytes), 0);
        const failed = Object.keys(deps.ignored ?? {}).length;
        bar?.update(done.length + failed, { size: formatSize(bytes), failed });
      })().catch(() => {});
    }, o.pollMs ?? 1000);
    return await new Promise<T>((resolve, reject) => {
      worker = new Worker(buildQueue, async (parentJob: Job) => {
        if (timer) clearInterval(timer);
        bar?.update(files.length);
        bar?.stop();
        const values = await parentJob.getChildrenValues<IngestJobResult>();
        const ignored = await parentJob.getIgnoredChildrenFailures();
        const byId = (key: string): string => key.slice(key.lastIndexOf(':') + 1);
        const results = new Map(Object.entries(values).map(([key, v]) => [byId(key), v]));
        const reasons = new Map(Object.entries(ignored).map(([key, v]) => [byId(key), v]));
        const parts: DistributedIngest['parts'] = [];
        const failures: DistributedIngest['failures'] = [];
        for (const [k, file] of files.entries()) {
          const r = results.get(ids[k]!);
          if (!r) {
            failures.push({ file: file.url, reason: reasons.get(ids[k]!) ?? 'the ingest job failed' });
            parts.push(null);
            continue;
          }
          const { store, settings } = job(file);
          const found = (await findPartitions(store, file)).find((p) => p.dir === r.dir && sameSettings(p.record.settings, settings));
          if (!found) throw new Error(`${file.url}: the worker reported partition ${r.dir}, which this machine cannot read (is the store shared?)`);
          parts.push({ ...found, reused: r.reused });
        }
        try {
          resolve(await build({ parts, failures }));
        } catch (e) {
          reject(e as Error);
        }
      }, { connection: connection as unknown as ConnectionOptions, concurrency: 1 });
      worker.on('error', (e) => reject(e));
    });
  } finally {
    if (timer) clearInterval(timer);
    bar?.stop();
    await (worker as Worker | null)?.close();
    await flow.close();
    // the run's build queue goes with it
    const q = new Queue(buildQueue, { connection: connection as unknown as ConnectionOptions });
    await q.obliterate({ force: true }).catch(() => {});
    await q.close();
    connection.disconnect();
  }
}
