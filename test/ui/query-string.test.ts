// Encoding of typed /api parameters as a query string, and the error message rule of the client.
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../src/api/client';
import { encodeQuery } from '../../src/api/query-string';
import { logoutUrl } from '../../src/api/auth-config';

describe('encodeQuery', () => {
  it('encodes numbers, strings, booleans and comma-joined arrays', () => {
    expect(encodeQuery({ limit: 50, offset: 0, category: 'Office visit', competitors: ['aetna', 'cigna'], only_overpaying: true }))
      .toBe('?limit=50&offset=0&category=Office+visit&competitors=aetna%2Ccigna&only_overpaying=true');
  });
  it('leaves out undefined, null, empty strings, empty arrays and non-finite numbers', () => {
    expect(encodeQuery({ a: undefined, b: null, c: '', d: [], e: Number.NaN })).toBe('');
    expect(encodeQuery({})).toBe('');
  });
  it('keeps false and zero', () => {
    expect(encodeQuery({ only_overpaying: false, offset: 0 })).toBe('?only_overpaying=false&offset=0');
  });
});

describe('messageOf', () => {
  it("uses the body's message, else 'Request failed'", () => {
    expect(messageOf({ message: 'invalid category: X', error: { code: 'bad_request', message: 'x' } })).toBe('invalid category: X');
    expect(messageOf({ message: '' })).toBe('Request failed');
    expect(messageOf(null)).toBe('Request failed');
    expect(messageOf('text')).toBe('Request failed');
  });
});

describe('logoutUrl', () => {
  it('points redirect_uri at this origin /login', () => {
    expect(logoutUrl('http://localhost:8080')).toBe('/api/auth/logout?redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Flogin');
  });
});
