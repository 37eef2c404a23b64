/**
 * Loads one `GET /api/...` route with the typed client and keeps the answer in component state
 * (docs/architecture.md: results stay out of the store). A change of `key` (the parameters, or
 * a reload counter) refetches and aborts the previous request; the previous answer stays readable
 * while the next one loads. `params === null` loads nothing (status 'idle').
 */
import { useLayoutEffect, useState } from 'react';
import type { Api } from '../../../contract/api';
import { apiCall, errorMessage, type GetRoute } from '../../api/client';

export type ApiLoad<T> =
  | { status: 'idle'; data: null; previous: T | null }
  | { status: 'loading'; data: null; previous: T | null }
  | { status: 'ready'; data: T; previous: T | null }
  | { status: 'error'; data: null; previous: T | null; message: string };

interface Settled<T> {
  key: string;
  data: T | null;
  message: string;
}

/** See the module comment. `extraKey` forces a reload (a retry) without changing the parameters. */
export function useApi<R extends GetRoute>(route: R, params: Api[R]['params'] | null, extraKey = ''): ApiLoad<Api[R]['result']> {
  type T = Api[R]['result'];
  const key = params === null ? '' : `${route}|${JSON.stringify(params)}|${extraKey}`;
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [last, setLast] = useState<T | null>(null);

  useLayoutEffect(() => {
    if (key === '') return;
    const controller = new AbortController();
    const p = JSON.parse(key.slice(route.length + 1, key.lastIndexOf('|'))) as Api[R]['params'];
    apiCall(route, p, { signal: controller.signal }).then(
      (data) => {
        setSettled({ key, data, message: '' });
        setLast(data);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSettled({ key, data: null, message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [key, route]);

  if (key === '') return { status: 'idle', data: null, previous: last };
  if (settled?.key !== key) return { status: 'loading', data: null, previous: last };
  if (settled.data === null) return { status: 'error', data: null, previous: last, message: settled.message };
  return { status: 'ready', data: settled.data, previous: last };
}
