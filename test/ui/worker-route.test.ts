// The fetch interceptor's routing decision: which requests go to the data worker.
import { describe, expect, it } from 'vitest';
import { isNullBodyStatus, isWorkerPath, toWorkerRequest } from '../../src/api/worker-route';
import { MANIFEST_ROUTES, isManifestRequest } from '../../contract/api';
import { matchRoute } from '../../workers/api/registry';

const ORIGIN = 'http://localhost:5173';

describe('isWorkerPath', () => {
  it('sends /api/ paths to the worker', () => {
    expect(isWorkerPath('/api/insurers')).toBe(true);
    expect(isWorkerPath('/api/service-pricing')).toBe(true);
    expect(isWorkerPath('/api/alerts/12/acknowledge')).toBe(true);
  });
  it('leaves /api/auth and everything outside /api/ to the network', () => {
    expect(isWorkerPath('/api/auth/login')).toBe(false);
    expect(isWorkerPath('/api/auth/config')).toBe(false);
    expect(isWorkerPath('/api/auth')).toBe(false);
    expect(isWorkerPath('/api')).toBe(false);
    expect(isWorkerPath('/data/manifest.json')).toBe(false);
    expect(isWorkerPath('/apis/x')).toBe(false);
    expect(isWorkerPath('/')).toBe(false);
  });
  it('does not treat look-alikes of auth as auth', () => {
    expect(isWorkerPath('/api/authors')).toBe(true);
  });
});

describe('toWorkerRequest', () => {
  it('builds the worker request from a relative URL with its query', () => {
    expect(toWorkerRequest('/api/service-pricing?limit=50&offset=100&category=Lab', 'get', ORIGIN)).toEqual({
      method: 'GET',
      path: '/api/service-pricing',
      query: { limit: '50', offset: '100', category: 'Lab' },
    });
  });
  it('accepts an absolute same-origin URL and decodes the query', () => {
    expect(toWorkerRequest(`${ORIGIN}/api/service-pricing?competitors=a%2Cb`, 'GET', ORIGIN)).toEqual({
      method: 'GET',
      path: '/api/service-pricing',
      query: { competitors: 'a,b' },
    });
  });
  it('keeps the last value of a repeated key', () => {
    expect(toWorkerRequest('/api/x?a=1&a=2', 'GET', ORIGIN)?.query).toEqual({ a: '2' });
  });
  it('carries a body for PUT', () => {
    expect(toWorkerRequest('/api/alerts/acknowledge-all', 'PUT', ORIGIN, '{}')).toEqual({
      method: 'PUT',
      path: '/api/alerts/acknowledge-all',
      query: {},
      body: '{}',
    });
  });
  it('passes other origins, auth endpoints and non-api paths through (null)', () => {
    expect(toWorkerRequest('http://example.com/api/insurers', 'GET', ORIGIN)).toBeNull();
    expect(toWorkerRequest('http://localhost:8080/api/insurers', 'GET', ORIGIN)).toBeNull();
    expect(toWorkerRequest('/api/auth/config', 'GET', ORIGIN)).toBeNull();
    expect(toWorkerRequest('/data/rates/part-0.parquet', 'GET', ORIGIN)).toBeNull();
    expect(toWorkerRequest('/src/main.tsx', 'GET', ORIGIN)).toBeNull();
  });
  it('resolves dot segments before deciding', () => {
    expect(toWorkerRequest('/api/../data/manifest.json', 'GET', ORIGIN)).toBeNull();
    expect(toWorkerRequest('/data/../api/insurers', 'GET', ORIGIN)?.path).toBe('/api/insurers');
  });
});

describe('isNullBodyStatus', () => {
  it('knows the statuses a Response may not carry a body with', () => {
    expect([204, 205, 304].every(isNullBodyStatus)).toBe(true);
    expect([200, 400, 401, 404, 500, 503].some(isNullBodyStatus)).toBe(false);
  });
});

describe('isManifestRequest', () => {
  it('names the routes the worker answers from the manifest before its boot ends, as the worker matches paths', () => {
    expect(isManifestRequest(toWorkerRequest('/api/dataset', 'get', ORIGIN)!)).toBe(true);
    expect(isManifestRequest(toWorkerRequest('/api/dataset/?x=1', 'GET', ORIGIN)!)).toBe(true);
    expect(isManifestRequest(toWorkerRequest('/api/dataset', 'PUT', ORIGIN)!)).toBe(false);
    expect(isManifestRequest(toWorkerRequest('/api/datasets', 'GET', ORIGIN)!)).toBe(false);
    expect(isManifestRequest(toWorkerRequest('/api/coverage', 'GET', ORIGIN)!)).toBe(false);
    // every such route is one the worker's registry knows, without path parameters
    for (const route of MANIFEST_ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      expect(matchRoute(method, path)?.route).toBe(route);
    }
  });
});
