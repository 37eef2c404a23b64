/**
 * The root scanner's container loop in WebAssembly (scripts/mrf/container-scan.ts): the committed
 * binary is the assembly of container-scan.wat, and the loop finds a container's end past strings,
 * escapes and brackets in strings, across chunk ends, in chunks larger than its first memory page.
 * (test/mrf/scan-filter-and-strings.test.ts drives it through the root scanner at every chunk size.)
 */
import { describe, expect, it } from 'vitest';
import { ContainerScan } from '../../scripts/mrf/container-scan';
import { CONTAINER_SCAN_WASM } from '../../scripts/mrf/container-scan-wasm';
import { assembleContainerScan, wasmModuleSource } from '../../scripts/mrf/build-container-scan';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

describe('container-scan binary', () => {
  it('is the assembly of container-scan.wat (run build-container-scan.ts after editing it)', async () => {
    const bytes = await assembleContainerScan();
    expect(Buffer.from(CONTAINER_SCAN_WASM, 'base64').equals(Buffer.from(bytes))).toBe(true);
    const committed = await readFile(path.resolve(__dirname, '../../scripts/mrf/container-scan-wasm.ts'), 'utf8');
    expect(committed).toBe(wasmModuleSource(bytes));
  });
});

describe('ContainerScan', () => {
  it('returns the index after the closing bracket, brackets and escaped quotes in strings skipped', () => {
    const s = new ContainerScan();
    // the container opens at index 0; the scan starts after it, at depth 1
    const json = '{"a":"}]\\"{","b":[1,{"c":"\\\\"}]}  tail';
    s.newChunk();
    expect(s.scan(Buffer.from(json), 1, 1)).toBe(json.indexOf('}  tail') + 1);
  });

  it('stops at a chunk end inside a string, and right after a backslash, with the depth', () => {
    const s = new ContainerScan();
    s.newChunk();
    expect(s.scan(Buffer.from('{"a":[{"b":"xy'), 1, 1)).toBe(-1);
    expect([s.depth, s.inStr, s.esc]).toEqual([3, true, false]);
    s.newChunk();
    expect(s.scan(Buffer.from('{"a":"x\\'), 1, 1)).toBe(-1);
    expect([s.depth, s.inStr, s.esc]).toEqual([1, true, true]);
    s.newChunk();
    expect(s.scan(Buffer.from('{"a":[1,2'), 1, 1)).toBe(-1);
    expect([s.depth, s.inStr, s.esc]).toEqual([2, false, false]);
  });

  it('stops where the depth comes down to the given level (the item splitter\'s rate elements)', () => {
    const s = new ContainerScan();
    // inside negotiated_rates (depth 2), a rate element opened at index 0: depth 3 from index 1
    const rates = '{"a":[1,"]"]},{"b":2}]';
    s.newChunk();
    expect(s.scan(Buffer.from(rates), 1, 3, 2)).toBe(rates.indexOf('},{') + 1);
  });

  it('does not count a { that cannot open an object (it follows a value, no key follows it), however the chunks end', () => {
    // 1{83: the stray '{' is skipped, the ']' then closes the array; x{"b" and {x: a stray byte
    // beside a real '{' leaves it counted
    for (const json of ['[1{83,2]  tail', '[1, {"a":1{ 8}]  tail', '[x{"b":1}]  tail', '[{x:1}]  tail', '[{}, {"a":[]}]  tail']) {
      const end = json.indexOf('  tail');
      const whole = new ContainerScan();
      whole.newChunk();
      expect(whole.scan(Buffer.from(json), 1, 1), json).toBe(end);
      // fed one byte at a time: the '{' at a chunk end waits for its next byte, the byte before a
      // chunk's first '{' comes from tail()
      const s = new ContainerScan();
      s.tail(Buffer.from('['));
      let depth = 1;
      let got = -1;
      for (let i = 1; i < json.length && got < 0; i++) {
        const chunk = Buffer.from(json.slice(i, i + 1));
        s.newChunk();
        const r = s.scan(chunk, 0, depth);
        if (r >= 0) got = i + r;
        else depth = s.depth;
        s.tail(chunk);
      }
      expect(got, json).toBe(end);
    }
  });

  it('grows its memory for a chunk larger than any before, and copies each new chunk', () => {
    const s = new ContainerScan();
    const big = `[${'"abc\\"[{",'.repeat(40_000)}0]`; // ~440 KB, past the first 64 KiB page
    s.newChunk();
    expect(s.scan(Buffer.from(big), 1, 1)).toBe(big.length);
    const small = '[[1],[2]]';
    s.newChunk();
    expect(s.scan(Buffer.from(small), 1, 1)).toBe(small.length);
  });
});
