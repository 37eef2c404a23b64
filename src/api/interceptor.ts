/**
 * The fetch interceptor, the only door to the data (docs/architecture.md). It wraps `window.fetch`:
 * every same-origin request under `/api/` except `/api/auth/*` goes to the data worker through
 * comlink and comes back as a real `Response` (JSON body, the worker's HTTP status,
 * `content-type: application/json`); everything else passes through untouched. The live screens'
 * first requests are answered from the dataset's first view (src/api/first-view.ts), the alerts
 * among them only while no acknowledgement is stored (src/api/ack-probe.ts).
 */
import * as Comlink from 'comlink';
import type { ApiErrorBody, ApiRequest } from '../../contract/api';
import { isManifestRequest } from '../../contract/api';
import type { BootState, DataWorkerApi, HashProgress, LocalFile, LocalOpenResult } from '../../contract/api';
import { tokenUserName } from '../store/token-claims';
import { readToken } from '../store/token-storage';
import { acknowledgementsStored } from './ack-probe';
import { fetchFirstView, type FirstViewIndex } from './first-view';
import { isNullBodyStatus, toWorkerRequest } from './worker-route';

/** Where the server serves the dataset. */
const DATA_URL = '/data/';

interface DataWorker {
  remote: Comlink.Remote<DataWorkerApi>;
  boot: Promise<BootState>;
  /** Rejects when the worker script fails to load or throws at top level; never resolves. */
  crashed: Promise<never>;
}

let worker: DataWorker | null = null;

/**
 * The server dataset's first view (src/api/first-view.ts): null when there is none, when the worker
 * opened a dataset of another `created_at`, or once a local snapshot is open.
 */
let firstView: Promise<FirstViewIndex | null> | null = null;

/**
 * Whether this page has sent the worker anything but a GET (an acknowledgement): from then on the
 * first view's alerts no longer stand, even where the worker keeps acknowledgements in memory only.
 */
let acknowledgedHere = false;

/** `window.fetch` as it was before installFetchInterceptor wrapped it. */
let unwrappedFetch: typeof fetch | null = null;

/**
 * The data access, started on first use: creates the worker once and starts `init({ dataUrl:
 * '/data/' })` at once, and fetches the first view beside it with the unwrapped `fetch`.
 */
function dataWorker(): DataWorker {
  if (worker) return worker;
  firstView ??= fetchFirstView(unwrappedFetch ?? window.fetch.bind(window), DATA_URL);
  const raw = new Worker(new URL('../../workers/data-worker.ts', import.meta.url), { type: 'module' });
  const crashed = new Promise<never>((_, reject) => {
    raw.addEventListener('error', (event) => {
      reject(new Error(`data worker failed: ${event.message || 'could not start'}`));
    });
  });
  crashed.catch(() => undefined);
  const remote = Comlink.wrap<DataWorkerApi>(raw);
  const boot = Promise.race([remote.init({ dataUrl: DATA_URL }), crashed]).catch(
    (error: unknown): BootState => ({ status: 'failed', reason: errorText(error) }),
  );
  worker = { remote, boot, crashed };
  const view = firstView;
  // A first view of another dataset than the one the worker opened is never used again.
  void boot.then(async (state) => {
    const index = await view;
    if (index && state.status === 'ready' && state.createdAt !== index.createdAt && firstView === view) firstView = null;
  });
  return worker;
}

/**
 * The routes whose screens read the dataset through /api (src/router.tsx): the live screens, the
 * snapshot page and the methodology (its notices). The sample-data screens, the sign-in pages and
 * a page not found read none. test/ui/opens-on-data.test.ts keeps the list in step with the router.
 */
export const DATA_ROUTES: readonly string[] = ['/live-dashboard', '/live-comparison', '/live-search', '/dataset', '/data-coverage', '/methodology'];

/**
 * Whether a page opened at `pathname` and `search` with `token` stored starts the data worker at
 * once: a signed-in user's page on one of DATA_ROUTES, and a sign-in's landing (a `token` in the
 * query: /auth/callback, /login), whose user goes on into the app. Any other page starts it with
 * its first /api request, if it makes one: its boot is a 6 MB download and seconds of CPU, which
 * /login's button, /logout, a visitor without a token (the shell sends them to /login) or a
 * sample-data screen opened from its URL never uses.
 */
export function opensOnData(pathname: string, search: string, token: string | null): boolean {
  if (pathname === '/logout') return false;
  if (new URLSearchParams(search).has('token')) return true;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return token !== null && DATA_ROUTES.includes(path);
}

/**
 * Checks a local snapshot in the worker and switches to it (contract/api/worker.ts `openLocal`);
 * `onProgress` receives the hashing progress. Resolves to the outcome; a crashed worker rejects.
 */
export async function openLocalDataset(files: LocalFile[], onProgress?: (p: HashProgress) => void): Promise<LocalOpenResult> {
  const { remote, boot, crashed } = dataWorker();
  await boot;
  const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
  const result = await Promise.race([remote.openLocal(files, progress), crashed]);
  // From now on the worker answers from the local snapshot: the server's first view no longer applies.
  if (result.ok) firstView = Promise.resolve(null);
  return result;
}

/** The worker's boot state (loading until init settles); starts the data access if needed. */
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

/**
 * Answers from the first view when it holds the request, else asks the worker; a crashed worker or
 * a failed call becomes a 503 with an ApiErrorBody.
 */
async function answer(request: ApiRequest, signal: AbortSignal): Promise<Response> {
  if (request.method.toUpperCase() !== 'GET') acknowledgedHere = true;
  // a page that opened without the data access (opensOnData) starts it with its first /api request
  const { remote, boot, crashed } = dataWorker();
  const recorded = (await firstView)?.lookup(request);
  if (recorded && (!recorded.requires_no_acknowledgements || !(acknowledgedHere || (await acknowledgementsStored())))) {
    return jsonResponse(recorded.status, recorded.body);
  }
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(abortError(signal));
    signal.addEventListener('abort', () => reject(abortError(signal)), { once: true });
  });
  aborted.catch(() => undefined);
  // the worker answers a manifest route before DuckDB is up; anything else waits here, so that a
  // request abandoned during the boot never reaches it
  if (!isManifestRequest(request)) await Promise.race([boot, aborted]);
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
 * Installs the wrapper around `window.fetch` (idempotent) and starts the data worker when the page
 * shows the dataset at once (opensOnData), else with the first /api request.
 * Throws nothing; requests the worker cannot answer resolve to a 503 JSON `Response`.
 */
export function installFetchInterceptor(): void {
  if (installed) return;
  installed = true;
  const nativeFetch = window.fetch.bind(window);
  unwrappedFetch = nativeFetch;
  if (opensOnData(window.location.pathname, window.location.search, readToken())) dataWorker();
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
