/**
 * Routing and parameter validation of the /api registry: 404 for unknown routes, 400
 * `invalid <name>: <value>` for bad parameters, and SQL-injection strings in every parameter
 * treated as plain values (400 or an empty result, never SQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, ServicePricingResult } from '../../contract/api';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
});
afterAll(async () => f?.dispose());

async function expectError(query: Record<string, string>, status: number, message: string): Promise<void> {
  const res = await f.get('/api/service-pricing', query);
  expect(res.status, JSON.stringify(query)).toBe(status);
  const body = res.body as ApiErrorBody;
  expect(body.message).toBe(message);
  expect(body.error).toEqual({ code: status === 400 ? 'bad_request' : 'not_found', message });
}

describe('routing', () => {
  it('answers 404 for an unknown path or method', async () => {
    const res = await f.get('/api/nope');
    expect(res).toEqual({
      status: 404,
      body: { message: 'unknown endpoint: GET /api/nope', error: { code: 'not_found', message: 'unknown endpoint: GET /api/nope' } },
    });
    expect((await f.service.handle({ method: 'POST', path: '/api/insurers', query: {} })).status).toBe(404);
    expect((await f.get('/api/insurers/../service-pricing')).status).toBe(404);
  });

  it('accepts a trailing slash and a lower-case method', async () => {
    expect((await f.service.handle({ method: 'get', path: '/api/insurers/', query: {} })).status).toBe(200);
  });
});

describe('bad parameters answer 400 invalid <name>: <value>', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ limit: '-3' }, 'invalid limit: -3'],
    [{ limit: '0' }, 'invalid limit: 0'],
    [{ limit: '1001' }, 'invalid limit: 1001'],
    [{ limit: '2.5' }, 'invalid limit: 2.5'],
    [{ limit: '1e2' }, 'invalid limit: 1e2'],
    [{ limit: 'ten' }, 'invalid limit: ten'],
    [{ offset: '-1' }, 'invalid offset: -1'],
    [{ offset: '0x10' }, 'invalid offset: 0x10'],
    [{ billing_class: 'both' }, 'invalid billing_class: both'],
    [{ billing_class: 'Professional' }, 'invalid billing_class: Professional'],
    [{ sort: 'price' }, 'invalid sort: price'],
    [{ competitors: 'alpha,nope' }, 'invalid competitors: nope'],
    [{ competitors: 'ref' }, 'invalid competitors: ref'],
    [{ state: 'California' }, 'invalid state: California'],
    [{ state: 'ALL' }, 'invalid state: ALL'],
    [{ state: 'C1' }, 'invalid state: C1'],
    [{ snapshot: '2024-12' }, 'invalid snapshot: 2024-12'],
    [{ snapshot: '2025-2' }, 'invalid snapshot: 2025-2'],
    [{ only_overpaying: 'yes' }, 'invalid only_overpaying: yes'],
  ];
  it.each(cases)('%j -> %s', async (query, message) => {
    await expectError(query, 400, message);
  });
});

describe('SQL injection strings are plain values', () => {
  const evil = ["' OR 1=1 --", "x'); DROP TABLE price_stats; --", '1; DROP TABLE services', '" OR ""="'];

  it.each(evil)('in validated parameters: 400 (%s)', async (s) => {
    for (const name of ['limit', 'offset', 'billing_class', 'sort', 'competitors', 'state', 'snapshot', 'only_overpaying']) {
      const res = await f.get('/api/service-pricing', { [name]: s });
      expect(res.status, `${name}=${s}`).toBe(400);
      expect((res.body as ApiErrorBody).message).toBe(`invalid ${name}: ${s}`);
    }
  });

  it.each(evil)('in category: an empty result (%s)', async (s) => {
    const res = await f.get('/api/service-pricing', { category: s });
    expect(res.status).toBe(200);
    const r = res.body as ServicePricingResult;
    expect([r.total, r.summary.services_total]).toEqual([0, 0]);
  });

  it('leaves every table in place', async () => {
    const r = (await f.get('/api/service-pricing')).body as ServicePricingResult;
    // The fixture's six comparison units (service-pricing.test.ts header).
    expect(r.total).toBe(6);
  });

  it('cuts a very long echoed value', async () => {
    const res = await f.get('/api/service-pricing', { sort: 'x'.repeat(500) });
    expect((res.body as ApiErrorBody).message).toBe(`invalid sort: ${'x'.repeat(120)}...`);
  });
});
