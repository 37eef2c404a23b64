/**
 * Which pages start the data worker as they open (src/api/interceptor.ts opensOnData): a signed-in
 * user's page and a sign-in's landing do; /login's button, /logout and a visitor without a token,
 * who all leave the app, do not.
 */
import { describe, expect, it } from 'vitest';
import { opensOnData } from '../../src/api/interceptor';

describe('opensOnData', () => {
  it('starts on every page of a signed-in user', () => {
    for (const path of ['/', '/live-dashboard', '/live-comparison', '/dataset', '/methodology', '/nowhere']) {
      expect(opensOnData(path, '', 'tok'), path).toBe(true);
    }
    expect(opensOnData('/live-comparison', '?services=99213', 'tok')).toBe(true);
  });

  it('starts on a sign-in landing, which carries its token in the query', () => {
    expect(opensOnData('/auth/callback', '?token=abc', null)).toBe(true);
    expect(opensOnData('/login', '?token=abc', null)).toBe(true);
  });

  it('does not start on /login, /logout or for a visitor without a token', () => {
    expect(opensOnData('/login', '', null)).toBe(false);
    expect(opensOnData('/login', '', 'tok')).toBe(false);
    expect(opensOnData('/logout', '', 'tok')).toBe(false);
    expect(opensOnData('/logout', '?token=abc', 'tok')).toBe(false);
    expect(opensOnData('/live-dashboard', '', null)).toBe(false);
    expect(opensOnData('/auth/callback', '', null)).toBe(false);
  });
});
