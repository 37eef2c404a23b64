/**
 * A module a screen loads behind its first figures (docs/architecture.md, Cold start): the live
 * dashboard's charts (Observable Plot and d3, ~265 KB) and the map's state shapes (~160 KB) are
 * not needed to show the KPI cards, so their chunks load in parallel with them instead of before.
 * The import starts on the first `load()` or `useLazyModule` and is shared by every caller.
 */
import { useEffect, useState } from 'react';

/** Where a lazy module stands. */
export type LazyState<T> =
  | { status: 'loading' }
  | { status: 'ready'; module: T }
  /** `message`: the import's error (e.g. a chunk the server no longer has after a deploy). */
  | { status: 'error'; message: string };

export interface LazyModule<T> {
  /** The state now; starts nothing. */
  state(): LazyState<T>;
  /** Starts the import once; resolves to the module, rejects with the import's error. */
  load(): Promise<T>;
}

/** Wraps `importer` (typically `() => import('./x')`) so it runs at most once. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let state: LazyState<T> = { status: 'loading' };
  let promise: Promise<T> | null = null;
  return {
    state: () => state,
    load() {
      promise ??= importer().then(
        (module) => {
          state = { status: 'ready', module };
          return module;
        },
        (error: unknown) => {
          state = { status: 'error', message: error instanceof Error ? error.message : String(error) };
          throw error;
        },
      );
      return promise;
    },
  };
}

/**
 * The module's state in a component, re-rendering when the import settles. Starts the import once
 * `start` is true (default: at once); a screen passes false until its first figures are drawn, so
 * that compiling the chunk does not delay them.
 */
export function useLazyModule<T>(lazy: LazyModule<T>, start = true): LazyState<T> {
  const [state, setState] = useState<LazyState<T>>(lazy.state);
  useEffect(() => {
    if (!start || state.status !== 'loading') return;
    let live = true;
    const settle = () => {
      if (live) setState(lazy.state());
    };
    lazy.load().then(settle, settle);
    return () => {
      live = false;
    };
  }, [lazy, start, state.status]);
  return state;
}
