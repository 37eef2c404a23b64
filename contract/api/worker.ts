/**
 * The comlink surface of the data worker (docs/architecture.md): `init(config)` then `handle(request)`;
 * `openLocal(files)` switches to an auditor's local snapshot after checking it.
 * The page imports only these types; the implementation lives in workers/.
 */
import type { ApiRequest, ApiResponse } from './routes';

/** Where the worker reads the dataset from. */
export interface WorkerConfig {
  /** Base URL of the dataset directory, ending in '/'; default `/data/`. */
  dataUrl: string;
}

/** The worker's boot state, as a value the UI can show (docs/architecture.md). */
export type BootState =
  | { status: 'loading' }
  | { status: 'ready'; createdAt: string; snapshots: string[]; referenceInsurer: string; origin: 'server' | 'local' }
  | { status: 'failed'; reason: string; httpStatus?: number };

/** One file of a local snapshot: its path inside the dataset directory (`rates/part-0.parquet`). */
export interface LocalFile {
  /** `webkitRelativePath` (`dataset/rates/part-0.parquet`; a leading directory shared by all is dropped) or the file name. */
  path: string;
  file: Blob;
}

/** Progress of checking a local snapshot: SHA-256 of every file, in full (bytes). */
export interface HashProgress {
  /** The file being hashed, as the manifest names it; '' when done. */
  file: string;
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
}

/** The outcome of `openLocal`: the new boot state, or the file and the problem (the dataset in use stays). */
export type LocalOpenResult = { ok: true; state: BootState } | { ok: false; file: string; problem: string };

export interface DataWorkerApi {
  init(config: WorkerConfig): Promise<BootState>;
  handle(request: ApiRequest): Promise<ApiResponse>;
  /**
   * Checks a local snapshot (manifest format and version, every file's size and SHA-256) and, when
   * it is sound and loads, answers every later request from it, with no network.
   * `onProgress` is called as files are hashed (a comlink proxy from the page).
   */
  openLocal(files: LocalFile[], onProgress?: (progress: HashProgress) => void): Promise<LocalOpenResult>;
}

/**
 * The IndexedDB database and object store of alert acknowledgements (workers/acks/ack-store.ts):
 * the worker writes them; the page only counts them (src/api/ack-probe.ts), to know whether the
 * first view's alerts still hold.
 */
export const ACK_DATABASE = 'compete-alerts';
export const ACK_OBJECT_STORE = 'acknowledgements';
