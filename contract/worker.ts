/**
 * The comlink surface of the data worker (architecture.md §2): `init(config)` then `handle(request)`.
 * The page imports only these types; the implementation lives in workers/.
 */
import type { ApiRequest, ApiResponse } from './api';

/** Where the worker reads the dataset from. */
export interface WorkerConfig {
  /** Base URL of the dataset directory, ending in '/'; default `/data/`. */
  dataUrl: string;
}

/** The worker's boot state, as a value the UI can show (architecture.md, Style). */
export type BootState =
  | { status: 'loading' }
  | { status: 'ready'; createdAt: string; snapshots: string[]; referenceInsurer: string; origin: 'server' | 'local' }
  | { status: 'failed'; reason: string; httpStatus?: number };

export interface DataWorkerApi {
  init(config: WorkerConfig): Promise<BootState>;
  handle(request: ApiRequest): Promise<ApiResponse>;
}
