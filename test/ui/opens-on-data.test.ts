/**
 * Which pages start the data worker as they open (src/api/interceptor.ts opensOnData): a signed-in
 * user's page on a route that reads the dataset and a sign-in's landing do; a sample-data screen,
 * /login's button, /logout, a visitor without a token and a page not found do not. DATA_ROUTES is held to the router: every
 * route whose screen is a live screen or calls the /api client itself is listed, and no other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_ROUTES, opensOnData } from '../../src/api/interceptor';

const SRC = join(import.meta.dirname, '../../src');

describe('opensOnData', () => {
  it('starts on the routes that read the dataset, for a signed-in user', () => {
    for (const path of DATA_ROUTES) {
      expect(opensOnData(path, '', 'tok'), path).toBe(true);
      expect(opensOnData(`${path}/`, '?limit=25', 'tok'), `${path}/`).toBe(true);
      expect(opensOnData(path, '', null), `${path} without a token`).toBe(false);
    }
  });

  it("starts on a sign-in's landing, whose user goes on into the app", () => {
    expect(opensOnData('/auth/callback', '?token=abc', null)).toBe(true);
    expect(opensOnData('/login', '?token=abc', null)).toBe(true);
    expect(opensOnData('/logout', '?token=abc', 'tok')).toBe(false);
  });

  it('does not start on the sample screens, the sign-in pages or a page not found', () => {
    for (const path of ['/', '/comparison', '/alerts', '/regional', '/settings', '/old-dashboard', '/overview', '/login', '/logout', '/auth/callback', '/nowhere']) {
      expect(opensOnData(path, '', 'tok'), path).toBe(false);
    }
  });

  it('lists exactly the routes whose screen reads the dataset', () => {
    const router = readFileSync(join(SRC, 'router.tsx'), 'utf8');
    const routes = [...router.matchAll(/\{ path: '([^']+)', element: screen\(\(\) => import\('\.\/([^']+)'\)/g)].map(([, path, module]) => {
      const file = readFileSync(join(SRC, `${module}.tsx`), 'utf8');
      const reads = module!.startsWith('live/') || /from '[^']*\/(use-api|client)'/.test(file);
      return { path: `/${path}`, reads };
    });
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => r.reads).map((r) => r.path).sort()).toEqual([...DATA_ROUTES].sort());
  });
});
