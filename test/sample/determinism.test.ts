/** Two generations give byte-identical files (seeded numbers, no clock, gzip mtime 0). */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSample } from '../../scripts/sample/index';

function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

describe('sample determinism', () => {
  const root = mkdtempSync(join(tmpdir(), 'sample-det-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes identical bytes twice, replaces an older output and leaves no temporary directory', async () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    const ra = await generateSample(a);
    // b already holds a stale file: it must be gone after the run (the old directory is replaced).
    await generateSample(b);
    writeFileSync(join(b, 'stale.txt'), 'old');
    const rb = await generateSample(b);
    expect(existsSync(join(b, 'stale.txt'))).toBe(false);
    expect(readdirSync(root).sort()).toEqual(['a', 'b']);
    const ha = hashes(a);
    const hb = hashes(b);
    expect(ha.size).toBe(44); // 40 MRFs + catalog + services + registry + claims
    expect(ra.files).toBe(44);
    expect(rb.bytes).toBe(ra.bytes);
    expect([...hb.keys()].sort()).toEqual([...ha.keys()].sort());
    for (const [file, hash] of ha) expect(hb.get(file), file).toBe(hash);
    // gzip header: magic 1f 8b, method 8, mtime bytes 4..7 all zero.
    const gz = readFileSync(join(a, 'mrf', 'anthem', '2025-11-01_anthem_in-network-rates.json.gz'));
    expect([...gz.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    expect(gz.readUInt32LE(4)).toBe(0);
  });
});
