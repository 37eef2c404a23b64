// The pieces of the suffix-range rewrite: which Range headers count as one suffix range, and the
// file a /data/ URL names, resolved as @fastify/static and @fastify/send resolve it (or null where
// they refuse it, so no file outside the dataset is ever looked at).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedPath, suffixLength } from '../../scripts/server/suffix-range';

describe('suffixLength', () => {
  it.each([
    ['bytes=-10', 10],
    ['bytes=-0', 0],
    ['bytes=-99999999', 99_999_999],
    [' bytes= - 7 ', 7],
  ])('reads %j as %s', (range, length) => {
    expect(suffixLength(range)).toBe(length);
  });

  it.each([undefined, '', 'bytes=0-', 'bytes=5-10', 'bytes=-5,0-1', 'bytes=0-1,-5', 'items=-5', 'bytes=-', 'bytes=--5', 'bytes=-5x'])(
    'leaves %j alone',
    (range) => {
      expect(suffixLength(range)).toBeNull();
    },
  );
});

describe('servedPath', () => {
  const root = join('/srv', 'dataset');
  it.each([
    ['/data/rates/part-0.parquet', join(root, 'rates', 'part-0.parquet')],
    ['/data/rates/part-0.parquet?x=1', join(root, 'rates', 'part-0.parquet')],
    ['/data//manifest.json', join(root, 'manifest.json')],
    ['/data/a%20b.parquet', join(root, 'a b.parquet')],
    ['/data/a%2Fb', join(root, 'a%2Fb')], // decodeURI keeps %2F, as @fastify/static does
    ['/data/rates/../manifest.json', join(root, 'manifest.json')],
  ])('resolves %s', (url, path) => {
    expect(servedPath(root, '/data/', url)).toBe(path);
  });

  it.each(['/data/../secret.txt', '/data/%2e%2e/secret.txt', '/data/rates/../../secret.txt', '/data/%', '/data/a%00b'])(
    'refuses %s',
    (url) => {
      expect(servedPath(root, '/data/', url)).toBeNull();
    },
  );
});
