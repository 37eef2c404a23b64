/**
 * Large in_network items are split by negotiated_rates while they stream (item-splitter.ts,
 * docs/architecture.md): with a tiny split threshold and tiny chunks, every fixture gives exactly the
 * rows of an unsplit read through the converter's reading path (reader-helpers.ts), and the
 * scanner emits 'rate' slices whose JSON is one rate each.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { RootScanner, type ScanEvent } from '../../scripts/mrf/root-scanner';
import { fixtureBytes } from './mrf-test-helpers';
import { expectSameRead, readBytes } from './reader-helpers';

const FILES = readdirSync(new URL('../fixtures/mrf/', import.meta.url)).filter((f) => f.endsWith('.json'));

describe('splitting large in_network items', () => {
  it.each(FILES)('%s reads the same split into 64-byte pieces as whole', async (name) => {
    const bytes = fixtureBytes(name);
    const whole = await readBytes(bytes, 1 << 20);
    const split = await readBytes(bytes, 13, { splitBytes: 64 });
    // the split items' rates were sent as slices of their own
    expect(split.split.length).toBeGreaterThan(0);
    expect(split.sent.some((e) => e.kind === 'rate')).toBe(true);
    expectSameRead({ ...split, sent: [], split: [] }, { ...whole, sent: [], split: [] });
  });

  it('cuts each negotiated_rates element, escapes and nested arrays included, and keeps the head', () => {
    const item = '{"billing_code":"9\\"9","negotiated_rates":[{"a":[1,{"b":"]}"}]} , {"c":2}],"name":"x"}';
    const json = `{"in_network":[${item}]}`;
    const scanner = new RootScanner('t', () => false, 8);
    const out: ScanEvent[] = [];
    const buf = Buffer.from(json);
    for (let i = 0; i < buf.length; i += 5) scanner.push(buf.subarray(i, i + 5), out);
    scanner.finish();
    const rates = out.filter((e) => e.kind === 'rate').map((e) => (e.kind === 'rate' ? [e.rateIndex, e.bytes.toString(), e.offset] : []));
    // offsets: the item starts at byte 15 ('{"in_network":[' is 15 bytes); '{"billing_code":"9\"9",'
    // is 23 bytes and '"negotiated_rates":[' 20, so rate 0 starts at 15 + 43 = 58; it is 20 bytes,
    // then ' , ' (3 bytes): rate 1 starts at 58 + 23 = 81.
    expect(rates).toEqual([
      [0, '{"a":[1,{"b":"]}"}]}', 58],
      [1, '{"c":2}', 81],
    ]);
    const head = out.find((e) => e.kind === 'element');
    expect(head?.kind === 'element' && head.split).toBe(true);
    expect(JSON.parse(head!.kind === 'element' ? head!.bytes.toString() : '')).toEqual({ billing_code: '9"9', negotiated_rates: [], name: 'x' });
  });
});
