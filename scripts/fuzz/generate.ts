/**
 * Small valid in-network MRFs for the fuzz harness (scripts/fuzz/cli.ts), generated from a seed
 * with the project's PRNG (contract/rules/prng.ts), together with a map of where each part sits in the
 * bytes, which the mutations (mutate.ts) use to aim and the checks (check.ts) to tell the items a
 * mutation touched from the ones it did not. Shapes follow the CMS schema
 * (/work/shared/tic/tic-format.md): v2 rates name root `provider_references` by id, v1 rates carry
 * inline `provider_groups`; root keys come in varying orders, with varying whitespace.
 */
import { mulberry32 } from '../../contract/rules/prng';

/** A half-open byte range [start, end) of the generated file. */
export interface Span {
  start: number;
  end: number;
}

/** One element of a root array, and the spans inside it the mutations aim at. */
export interface ElementMap extends Span {
  array: 'provider_references' | 'in_network';
  /** Index in its array. */
  index: number;
  /** Spans of string tokens (quotes included) of values that only this element holds (name, description, ...). */
  strings: Span[];
  /** Spans of the `negotiated_rate` number tokens. */
  rates: Span[];
  /** The span of the `"billing_code":"..."` pair (in_network only). */
  billingCode?: Span;
  /** The string group ids written in this element, each with the span of its token. */
  ids: Array<{ id: string; span: Span }>;
  /** The group id a provider_references element declares. */
  groupId?: string;
}

/** A generated file: its bytes, the map of its elements, and where mutations between elements can go. */
export interface GeneratedMrf {
  bytes: Buffer;
  /** `v1` inline groups, `v2` provider references. */
  shape: 'v1' | 'v2';
  elements: ElementMap[];
  /** Offsets between two elements of a root array (just after an element, before its comma, or after the comma). */
  gaps: Array<{ at: number; before: ElementMap; after: ElementMap }>;
  /** The span of the whole `"in_network":[...]` pair. */
  inNetworkPair: Span;
  /** The span of the `in_network` array (brackets included). */
  inNetworkArray: Span;
  /** The offset of the root object's closing brace. */
  rootEnd: number;
}

/** What to generate. */
export interface GenerateOptions {
  /** Items in `in_network` (default 2-6 at random). */
  items?: number;
  /** Rates of one item made large, to pass a lowered split threshold (bytes of its rates, about). */
  largeItemBytes?: number;
  /** Billing codes to avoid (a decoy array must not repeat the codes of the real one). */
  avoidCodes?: ReadonlySet<string>;
  /** First billing code number tried (decoys start elsewhere so that their codes differ). */
  codeBase?: number;
}

/** Appends text and keeps its byte length, so that spans are byte offsets (text may be non-ASCII). */
class Writer {
  private readonly parts: string[] = [];
  at = 0;
  put(s: string): Span {
    const start = this.at;
    this.parts.push(s);
    this.at += Buffer.byteLength(s, 'utf8');
    return { start, end: this.at };
  }
  text(): string {
    return this.parts.join('');
  }
}

const NAMES = ['Office visit', 'Knee X-ray', 'Caf\u00e9 consult', 'Room and board', 'Lab panel "basic"', 'MRI, brain'];
const TYPES = ['negotiated', 'fee schedule', 'derived', 'per diem'];
const CLASSES = ['professional', 'institutional'];

/**
 * Generates one file from `seed` (same seed, same bytes). Every billing code is distinct; group ids
 * are integers or strings like `grp-12` (the U+001F mutation needs string ids).
 */
export function generateMrf(seed: number, o: GenerateOptions = {}): GeneratedMrf {
  const rnd = mulberry32(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const shape: 'v1' | 'v2' = rnd() < 0.3 ? 'v1' : 'v2';
  const pretty = rnd() < 0.4;
  const ws = (): string => (pretty ? pick(['\n  ', ' ', '\n', '\t', '\r\n ']) : '');
  const w = new Writer();
  const elements: ElementMap[] = [];
  const gaps: GeneratedMrf['gaps'] = [];
  const groupIds: string[] = [];
  const nGroups = 1 + int(4);
  const stringIds = rnd() < 0.6;
  for (let g = 0; g < nGroups; g++) groupIds.push(stringIds && rnd() < 0.7 ? `grp-${10 + g}` : String(1 + g));

  const idToken = (id: string): string => (/^[0-9]+$/.test(id) ? id : JSON.stringify(id));
  const providers = (): string => {
    const npis = Array.from({ length: 1 + int(2) }, () => String(1000000000 + int(899999999)));
    return `{"npi":[${npis.join(',')}],"tin":{"type":"ein","value":"${10 + int(89)}-${1000000 + int(8999999)}"}}`;
  };

  /** Writes one array of elements, recording each element's map and the gaps between them. */
  const array = (name: ElementMap['array'], count: number, element: (index: number, e: ElementMap) => void): Span => {
    const arr = w.put('[');
    let prev: ElementMap | null = null;
    for (let k = 0; k < count; k++) {
      const gapBeforeComma = w.at;
      if (k > 0) w.put(`,${ws()}`);
      else w.put(ws());
      const e: ElementMap = { array: name, index: k, start: w.at, end: w.at, strings: [], rates: [], ids: [] };
      element(k, e);
      e.end = w.at;
      if (prev) {
        gaps.push({ at: gapBeforeComma, before: prev, after: e });
        gaps.push({ at: gapBeforeComma + 1, before: prev, after: e });
      }
      elements.push(e);
      prev = e;
    }
    w.put(`${ws()}]`);
    return { start: arr.start, end: w.at };
  };

  const rateText = (e: ElementMap): void => {
    w.put('{');
    if (shape === 'v2') {
      const ids = groupIds.filter(() => rnd() < 0.6);
      if (ids.length === 0) ids.push(pick(groupIds));
      w.put('"provider_references":[');
      ids.forEach((id, k) => {
        if (k > 0) w.put(',');
        const span = w.put(idToken(id));
        if (!/^[0-9]+$/.test(id)) e.ids.push({ id, span });
      });
      w.put('],');
    } else {
      w.put(`"provider_groups":[${Array.from({ length: 1 + int(2) }, providers).join(',')}],`);
    }
    w.put(`"negotiated_prices":[`);
    const nPrices = 1 + int(3);
    for (let p = 0; p < nPrices; p++) {
      if (p > 0) w.put(`,${ws()}`);
      w.put(`{"negotiated_type":"${pick(TYPES)}","negotiated_rate":`);
      e.rates.push(w.put((5 + rnd() * 2000).toFixed(pick([0, 2, 2]))));
      w.put(`,"expiration_date":"9999-12-31","service_code":["${pick(['11', '22', '02'])}"],"billing_class":"${pick(CLASSES)}"`);
      if (rnd() < 0.3) w.put(`,"billing_code_modifier":["${pick(['26', 'TC'])}"]`);
      w.put('}');
    }
    w.put(']}');
  };

  const header: string[] = [
    `"reporting_entity_name":"Fuzz Plan ${int(100)}"`, '"reporting_entity_type":"health insurance issuer"',
    `"last_updated_on":"2025-0${1 + int(9)}-01"`, `"version":"${shape === 'v1' ? '1.0.0' : '2.0.0'}"`,
  ];
  const nItems = o.items ?? 2 + int(5);
  const large = o.largeItemBytes !== undefined ? int(nItems) : -1;
  const usedCodes = new Set(o.avoidCodes ?? []);
  let codeNumber = o.codeBase ?? 10000 + int(80000);
  const nextCode = (): string => {
    while (usedCodes.has(String(codeNumber))) codeNumber++;
    usedCodes.add(String(codeNumber));
    return String(codeNumber++);
  };

  let inNetworkPair: Span = { start: 0, end: 0 };
  let inNetworkArray: Span = { start: 0, end: 0 };
  const writeProviderReferences = (): void => {
    w.put(`"provider_references":`);
    array('provider_references', nGroups, (g, e) => {
      w.put('{"provider_group_id":');
      const id = groupIds[g]!;
      e.groupId = id;
      const span = w.put(idToken(id));
      if (!/^[0-9]+$/.test(id)) e.ids.push({ id, span });
      w.put(`,"provider_groups":[${providers()}]}`);
    });
  };
  const writeInNetwork = (): void => {
    const start = w.at;
    w.put(`"in_network":${ws()}`);
    inNetworkArray = array('in_network', nItems, (k, e) => {
      w.put(`{"negotiation_arrangement":"${rnd() < 0.15 ? 'bundle' : 'ffs'}","name":`);
      e.strings.push(w.put(JSON.stringify(pick(NAMES))));
      w.put(`,"billing_code_type":"${pick(['CPT', 'HCPCS', 'MS-DRG'])}","billing_code_type_version":"2025",`);
      e.billingCode = w.put(`"billing_code":"${nextCode()}"`);
      w.put(',"description":');
      e.strings.push(w.put(JSON.stringify(`Description of item ${k} ${pick(NAMES)}`)));
      if (rnd() < 0.2) w.put(`,"bundled_codes":[{"billing_code_type":"CPT","billing_code":"${10000 + int(80000)}","description":"bundled"}]`);
      w.put(`,${ws()}"negotiated_rates":[`);
      const target = k === large ? o.largeItemBytes! : 0;
      const from = w.at;
      for (let r = 0; r === 0 || r < 1 + int(2) || w.at - from < target; r++) {
        if (r > 0) w.put(`,${ws()}`);
        rateText(e);
      }
      w.put(']}');
    });
    inNetworkPair = { start, end: w.at };
  };

  const parts: Array<() => void> = header.map((h) => () => void w.put(h));
  if (shape === 'v2' || rnd() < 0.3) parts.push(writeProviderReferences);
  parts.push(writeInNetwork);
  // root key order varies in real files (docs/converter.md, Quirks of real files)
  if (rnd() < 0.3) parts.sort(() => rnd() - 0.5);
  w.put(`{${ws()}`);
  parts.forEach((part, k) => {
    if (k > 0) w.put(`,${ws()}`);
    part();
  });
  const rootEnd = w.put(`${ws()}}`).end - 1;
  w.put(pretty ? '\n' : '');
  return { bytes: Buffer.from(w.text(), 'utf8'), shape, elements, gaps, inNetworkPair, inNetworkArray, rootEnd };
}
