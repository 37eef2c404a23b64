/**
 * The fetch interceptor, the only door to the data (docs/architecture.md). It wraps `window.fetch`:
 * every same-origin request under `/api/` except `/api/auth/*` goes to the data worker through
 * comlink and comes back as a real `Response` (JSON body, the worker's HTTP status,
 * `content-type: application/json`); everything else passes through untouched.
 */
import * as Comlink from 'comlink';
import type { ApiErrorBody, ApiRequest } from '../../contract/api';
import type { BootState, DataWorkerApi, HashProgress, LocalFile, LocalOpenResult } from '../../contract/worker';
import { tokenUserName } from '../store/token-claims';
import { readToken } from '../store/token-storage';
import { isNullBodyStatus, toWorkerRequest } from './worker-route';

interface DataWorker {
  remote: Comlink.Remote<DataWorkerApi>;
  boot: Promise<BootState>;
  /** Rejects when the worker script fails to load or throws at top level; never resolves. */
  crashed: Promise<never>;
}

let worker: DataWorker | null = null;

/** Creates the worker once and starts `init({ dataUrl: '/data/' })` at once. */
function dataWorker(): DataWorker {
  if (worker) return worker;
  const raw = new Worker(new URL('../../workers/data-worker.ts', import.meta.url), { type: 'module' });
  const crashed = new Promise<never>((_, reject) => {
    raw.addEventListener('error', (event) => {
      reject(new Error(`data worker failed: ${event.message || 'could not start'}`));
    });
  });
  crashed.catch(() => undefined);
  const remote = Comlink.wrap<DataWorkerApi>(raw);
  const boot = Promise.race([remote.init({ dataUrl: '/data/' }), crashed]).catch(
    (error: unknown): BootState => ({ status: 'failed', reason: errorText(error) }),
  );
  worker = { remote, boot, crashed };
  return worker;
}

/**
 * Checks a local snapshot in the worker and switches to it (contract/worker.ts `openLocal`);
 * `onProgress` receives the hashing progress. Resolves to the outcome; a crashed worker rejects.
 */
export async function openLocalDataset(files: LocalFile[], onProgress?: (p: HashProgress) => void): Promise<LocalOpenResult> {
  const { remote, boot, crashed } = dataWorker();
  await boot;
  const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
  return Promise.race([remote.openLocal(files, progress), crashed]);
}

/** The worker's boot state (loading until init settles); starts the worker if needed. */
export function dataWorkerBoot(): Promise<BootState> {
  return dataWorker().boot;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(isNullBodyStatus(status) ? null : JSON.stringify(body ?? null), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function unavailable(reason: string): Response {
  const body: ApiErrorBody = {
    message: `Data worker unavailable: ${reason}`,
    error: { code: 'unavailable', message: reason },
  };
  return jsonResponse(503, body);
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Asks the worker; a crashed worker or a failed call becomes a 503 with an ApiErrorBody. */
async function answer(request: ApiRequest, signal: AbortSignal): Promise<Response> {
  const { remote, boot, crashed } = dataWorker();
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(abortError(signal));
    signal.addEventListener('abort', () => reject(abortError(signal)), { once: true });
  });
  aborted.catch(() => undefined);
  await Promise.race([boot, aborted]);
  let result;
  try {
    result = await Promise.race([remote.handle(request), crashed, aborted]);
  } catch (error) {
    if (signal.aborted) throw error;
    return unavailable(errorText(error));
  }
  return jsonResponse(result.status, result.body);
}

let installed = false;

/**
 * Installs the wrapper around `window.fetch` (idempotent) and starts the data worker.
 * Throws nothing; requests the worker cannot answer resolve to a 503 JSON `Response`.
 */
export function installFetchInterceptor(): void {
  if (installed) return;
  installed = true;
  const nativeFetch = window.fetch.bind(window);
  dataWorker();
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (!toWorkerRequest(url, method, window.location.origin)) return nativeFetch(input, init);
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    const apiRequest = toWorkerRequest(request.url, request.method, window.location.origin, body || undefined);
    if (!apiRequest) return nativeFetch(input, init);
    // Who acknowledges an alert: the app token's `name` claim (the server fills it from the identity
    // provider's name, preferred_username or email).
    const user = tokenUserName(readToken());
    if (user) apiRequest.user = user;
    return answer(apiRequest, request.signal);
  };
}
