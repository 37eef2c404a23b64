/**
 * The alerts client of product-spec §7 (base path /api): every call resolves to
 * `{ data, success, message }`, never rejects. `message` is the body's `message`, else
 * 'Request failed', else the network error's text; `data` is null on failure.
 */
import type { AcknowledgeAllResult, Alert } from '../../contract/api';
import { messageOf } from './api-error';

/** The wrapped answer of the alerts client. */
export interface ApiResult<T> {
  data: T | null;
  success: boolean;
  message: string;
}

async function call<T>(method: 'GET' | 'PUT', path: string, signal?: AbortSignal): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { method, headers: { accept: 'application/json' }, signal });
  } catch (error) {
    return { data: null, success: false, message: error instanceof Error ? error.message : String(error) };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { data: null, success: false, message: messageOf(body) };
  return { data: body as T, success: true, message: 'OK' };
}

/** `GET /api/alerts`. */
export function getAlerts(signal?: AbortSignal): Promise<ApiResult<Alert[]>> {
  return call<Alert[]>('GET', '/alerts', signal);
}

/** `PUT /api/alerts/{id}/acknowledge`: records the signed-in user and the time. */
export function acknowledgeAlert(id: string): Promise<ApiResult<Alert>> {
  return call<Alert>('PUT', `/alerts/${encodeURIComponent(id)}/acknowledge`);
}

/** `PUT /api/alerts/acknowledge-all`. */
export function acknowledgeAllAlerts(): Promise<ApiResult<AcknowledgeAllResult>> {
  return call<AcknowledgeAllResult>('PUT', '/alerts/acknowledge-all');
}
