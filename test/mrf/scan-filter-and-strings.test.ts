/**
 * The byte scanners' fast paths (scan-bytes.ts): strings skipped by `indexOf` with escapes counted,
 * across every chunk boundary; and the billing-code filter of a split item (item-splitter.ts),
 * which drops the rates of an item whose code it rejects instead of cutting them.
 */
import { describe, expect, it } from 'vitest';
import { RootScanner, type ScanEvent } from '../../scripts/mrf/root-scanner';
import { skipString } from '../../scripts/mrf/scan-bytes';

function scan(json: string, chunk: number, splitBytes: number, keep?: (code: string) => boolean): ScanEvent[] {
  const scanner = new RootScanner('t', () => false, splitBytes, keep);
  const out: ScanEvent[] = [];
  const buf = Buffer.from(json);
  for (let i = 0; i < buf.length; i += chunk) scanner.push(buf.subarray(i, i + chunk), out);
  scanner.finish();
  return out;
}

const summary = (out: ScanEvent[]): string[] =>
  out.map((e) => (e.kind === 'rate' ? `rate ${e.index}.${e.rateIndex} ${e.bytes.toString()}` : e.kind === 'element' ? `${e.array} ${e.index}${e.split ? ' split' : ''} ${e.bytes.toString()}` : e.kind));

describe('skipString', () => {
  it('finds the closing quote past escaped quotes and backslashes', () => {
    // 'a\"b\\' then the closing quote: bytes a \ " b \ \ " -> the quote at index 6 closes it
    const buf = Buffer.from('a\\"b\\\\"x');
    expect(skipString(buf, 0)).toBe(6);
  });
  it('reports a string open at the chunk end, and a pending escape', () => {
    expect(skipString(Buffer.from('abc'), 0)).toBe(-1);
    expect(skipString(Buffer.from('ab\\'), 0)).toBe(-2);
    // two backslashes escape each other: no pending escape
    expect(skipString(Buffer.from('ab\\\\'), 0)).toBe(-1);
  });
});

describe('root scanner and splitter with tricky strings at every chunk size', () => {
  const item = (code: string): string =>
    `{"billing_code":"${code}","name":"br}ack]e\\"t\\\\","negotiated_rates":[{"a":"}\\\\","b":[1,"[\\""]},{"c":{"d":"\\\\\\""}}]}`;
  const json = `{"version":"1","in_network":[${item('1')},${item('2')}]}`;
  const whole = summary(scan(json, 1 << 20, 1 << 20));

  it('gives the elements whole when nothing is split', () => {
    expect(whole).toEqual([`in_network 0 ${item('1')}`, `in_network 1 ${item('2')}`]);
  });

  it.each([1, 2, 3, 5, 7, 64])('gives the same rates and heads with %i-byte chunks when split', (chunk) => {
    const split = summary(scan(json, chunk, 16));
    const head = (code: string): string => `{"billing_code":"${code}","name":"br}ack]e\\"t\\\\","negotiated_rates":[]}`;
    expect(split).toEqual([
      'rate 0.0 {"a":"}\\\\","b":[1,"[\\""]}',
      'rate 0.1 {"c":{"d":"\\\\\\""}}',
      `in_network 0 split ${head('1')}`,
      'rate 1.0 {"a":"}\\\\","b":[1,"[\\""]}',
      'rate 1.1 {"c":{"d":"\\\\\\""}}',
      `in_network 1 split ${head('2')}`,
    ]);
  });

  it.each([1, 3, 64])('drops the rates of a split item whose code the filter rejects (%i-byte chunks)', (chunk) => {
    const split = summary(scan(json, chunk, 16, (code) => code === '2'));
    // item 0 (code 1) keeps only its head, which the reader then skips by its code; item 1 is whole
    expect(split.filter((s) => s.startsWith('rate'))).toEqual(['rate 1.0 {"a":"}\\\\","b":[1,"[\\""]}', 'rate 1.1 {"c":{"d":"\\\\\\""}}']);
    expect(split.filter((s) => s.startsWith('in_network')).map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['in_network 0 split', 'in_network 1 split']);
  });

  it.each([1, 3, 7, 64])('drops the bytes of a whole item whose code the filter rejects while it streams (%i-byte chunks)', (chunk) => {
    const out = scan(json, chunk, 1 << 20, (code) => code === '2');
    // item 0 (code 1) spans chunks: rejected from its first bytes, it comes out as its head alone,
    // its rates dropped for that code (a billing_code written again later would still be seen);
    // item 1 (code 2) is kept whole
    const head = `{"billing_code":"1","name":"br}ack]e\\"t\\\\","negotiated_rates":[]}`;
    expect(out.map((e) => (e.kind === 'element' ? [e.index, e.droppedFor ?? null, e.bytes.toString()] : e.kind)))
      .toEqual([[0, '1', head], [1, null, item('2')]]);
  });

  it('gives a rejected item that ends in its first chunk whole (the reader peeks at it)', () => {
    const out = scan(json, 1 << 20, 1 << 20, (code) => code === '2');
    expect(out.map((e) => (e.kind === 'element' ? e.droppedFor ?? null : e.kind))).toEqual([null, null]);
  });

  it('keeps the rates when the code comes after negotiated_rates (the filter cannot know it yet)', () => {
    const late = `{"in_network":[{"negotiated_rates":[{"x":1}],"billing_code":"1"}]}`;
    expect(summary(scan(late, 4, 8, () => false)).filter((s) => s.startsWith('rate'))).toEqual(['rate 0.0 {"x":1}']);
  });
});
