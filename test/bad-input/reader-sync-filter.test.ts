/**
 * The billing-code filter and damaged items (docs/converter.md, What it reads, and what it does
 * with bad input): with a split threshold, a filtered read keeps exactly the kept items of the
 * unfiltered read, a damaged one included (only its damaged rate is lost when it is split); a
 * quote deleted inside an item may cost the items after it (the string state is inverted), but
 * never silently: the damaged element is reported. Inputs are built here; the fuzz harness's
 * cases (scripts/fuzz/case.ts) that found these are run again at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase } from '../../scripts/fuzz/case';
import { MUTATION_KINDS } from '../../scripts/fuzz/mutate';
import type { ReadOutcome, Reader } from '../../scripts/fuzz/read';
import { temporaryConverterReader } from '../../scripts/fuzz/run';
import { item, mrf, price } from './harness';

const CHUNKS = [0, 1, 3, 7, 64, 4096];
let reader: Reader;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ reader, close } = await temporaryConverterReader());
});
afterAll(async () => {
  await close();
});

/** An item of `n` rates (code `code`); `rate(k)` writes rate k's `billing_class`. */
function bigItem(code: string, n: number, billingClass: (k: number) => string = () => 'professional'): string {
  const rates = Array.from({ length: n }, (_, k) =>
    `{"provider_references":[1],"negotiated_prices":[{"negotiated_type":"negotiated","negotiated_rate":${100 + k},"expiration_date":"9999-12-31","service_code":["11"],"billing_class":"${billingClass(k)}"}]}`);
  return `{"negotiation_arrangement":"ffs","name":"S","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"${code}",` +
    `"description":"d","negotiated_rates":[${rates.join(',')}]}`;
}

/** Items as `code:prices`, sorted, and the problems as [code, offset]. */
function summary(o: ReadOutcome): { items: string[]; problems: Array<[string, number]> } {
  return { items: o.items.map((i) => `${i.billingCode}:${i.prices.length}`).sort(), problems: o.problems.map((p): [string, number] => [p.code, p.offset]) };
}

describe('the billing-code filter on a damaged item, whatever the chunks', () => {
  it('a split item with a control byte in one rate keeps its other rates, filtered or not', async () => {
    // a raw newline inside a string value: that rate is not JSON, the item's others are
    const bad = bigItem('99214', 12, (k) => (k === 5 ? 'profes\nsional' : 'professional'));
    const text = Buffer.from(mrf([bad, item('"99215"', price('7')), item('"99216"', price('8'))]));
    for (const chunk of CHUNKS) {
      for (const slow of [false, true]) {
        const all = summary(await reader(text, { chunk, gzip: false, slow, splitBytes: 512 }));
        expect(all.items).toEqual(['99213:1', '99214:11', '99215:1', '99216:1']);
        const kept = summary(await reader(text, { chunk, gzip: false, slow, splitBytes: 512, billingCodes: ['99213', '99214', '99216'] }));
        expect(kept.items).toEqual(['99213:1', '99214:11', '99216:1']);
      }
    }
  });

  it('the fuzz cases of a damaged split item read with the filter find nothing', async () => {
    for (const seed of [1846942522, 3896927980, 4146019913, 2488273956]) {
      const r = await runCase(seed, MUTATION_KINDS, reader);
      expect(r.violations.map((v) => `${seed}: (${v.invariant}) ${v.detail}`)).toEqual([]);
    }
  }, 60_000);
});

describe('a quote deleted inside an item', () => {
  it('that leaves the string state inverted to the end: the file is refused at its end, never read silently short', async () => {
    const damaged = item('"99214"', price('5')).replace('"99214"', '"99214');
    const text = mrf([damaged, item('"99215"', price('7')), item('"99216"', price('8'))]);
    const at = text.indexOf(damaged);
    // the string state stays inverted to the end: the root object is never closed, so the file is
    // refused as truncated, at its end (after the damage), whatever the chunks
    for (const chunk of CHUNKS) {
      for (const slow of [false, true]) {
        const o = await reader(Buffer.from(text), { chunk, gzip: false, slow });
        expect(o.fatal).toEqual({ reason: 'truncated JSON: the stream ends inside the root object', offset: Buffer.byteLength(text) });
        expect(o.fatal!.offset).toBeGreaterThan(at);
      }
    }
  });

  it('the fuzz cases of a quote lost in a provider reference or an item find nothing', async () => {
    for (const seed of [2896117649, 1506641076]) {
      const r = await runCase(seed, MUTATION_KINDS, reader);
      expect(r.violations.map((v) => `${seed}: (${v.invariant}) ${v.detail}`)).toEqual([]);
    }
  }, 60_000);
});
