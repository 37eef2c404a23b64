/**
 * json-checks.ts on hand-made elements: duplicate keys with the path of their second occurrence,
 * the path of a value at a byte, the first byte that is not UTF-8. The expected paths and offsets
 * are read off the JSON texts written here.
 */
import { describe, expect, it } from 'vitest';
import { duplicateKeys, firstInvalidUtf8, pathAt } from '../../scripts/mrf/json-checks';

const dups = (text: string): Array<[string, number]> => {
  const b = Buffer.from(text);
  return duplicateKeys(b, 0, b.length, '$.e').map((d) => [d.path, d.at]);
};

describe('duplicateKeys', () => {
  it('finds a key written twice at any depth, after arrays of numbers, objects and strings', () => {
    expect(dups('{"a":1,"a":2}')).toEqual([['$.e.a', 7]]);
    expect(dups('{"b":[1,{"z":"hi"}],"a":3,"a":4}')).toEqual([['$.e.a', 26]]);
    expect(dups('{"g":[{"npi":[1,2,3],"npi":[4]}]}')).toEqual([['$.e.g[0].npi', 21]]);
    // the same key in two objects, or in an object and its child, is no duplicate
    expect(dups('{"x":{"x":1},"y":[{"k":1},{"k":2}]}')).toEqual([]);
    // a key with an escaped quote, and one that is not a plain name
    expect(dups('{"a\\"b":1,"c d":2,"c d":3,"a\\"b":4}')).toEqual([['$.e["c d"]', 18], ['$.e["a\\"b"]', 26]]);
  });

  it('counts array elements through runs of numbers, so a later path has the right index', () => {
    expect(dups('{"l":[10, 20,30,{"q":1,"q":2}]}')).toEqual([['$.e.l[3].q', 23]]);
  });
});

describe('pathAt', () => {
  const text = '{"a":1,"b":[{"x":"q"},{"y":[1,{"z":"hi"}]}],"c d":true}';
  const b = Buffer.from(text);
  const at = (s: string): string => pathAt(b, 0, b.length, text.indexOf(s), '$.e');
  it('names the value or key that starts at a byte', () => {
    expect(at('"hi"')).toBe('$.e.b[1].y[1].z');
    expect(at('{"z"')).toBe('$.e.b[1].y[1]');
    expect(at('true')).toBe('$.e["c d"]');
    expect(at('"c d"')).toBe('$.e["c d"] (key)');
    expect(pathAt(b, 0, b.length, 0, '$.e')).toBe('$.e');
  });
});

describe('firstInvalidUtf8', () => {
  it('gives the first byte that starts no valid sequence', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo €😀'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc3, 0xa9, 0x62, 0xff, 0x63]))).toBe(4);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1); // cut short
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0x80]))).toBe(0); // overlong
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xff, 0x62]), 2)).toBe(-1); // outside the range looked at
  });
});
