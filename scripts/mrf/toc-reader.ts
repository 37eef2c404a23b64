/**
 * Streaming reader of a table-of-contents (index) file (CMS table-of-contents
 * schema). Indexes reach many GB (Anthem), so the root object is never parsed whole: a byte scanner
 * cuts each element of the root `reporting_structure[]` and `JSON.parse`s that element alone; the
 * root scalars (`reporting_entity_name`, ...) are read wherever they sit. `allowed_amount_file` (an
 * object, or an array as in the BCBS Texas index, docs/converter.md, Quirks of real files) is ignored.
 */
import type { ManifestReportingPlan } from '../../contract/files/dataset';
import { isObject, report, text, type ElementContext } from './normalize-context.js';
import { MrfReadError, type MrfProblem } from './types.js';

/**
 * One `reporting_plans[]` element; `plan_id_type` and `plan_market_type` lower-cased (enum case
 * drift, quirk 15); `issuer_name` and `plan_sponsor_name` (v2) absent when not published. The
 * manifest's plan (contract/files/dataset.ts) as read.
 */
export type TocReportingPlan = ManifestReportingPlan;

/** One `reporting_structure[]` element. */
export interface TocReportingStructure {
  index: number;
  /** Byte offset of the element in the decompressed index. */
  offset: number;
  reporting_plans: TocReportingPlan[];
  /** `in_network_files[].location` as written, in order (empty ones dropped with a problem). */
  in_network_files: string[];
  /** `in_network_files[].description` of each kept location ('' when absent), in the same order. */
  in_network_descriptions: string[];
}

/** Root scalars of the index ('' when absent). */
export interface TocHeader {
  reporting_entity_name: string;
  reporting_entity_type: string;
  last_updated_on: string;
  version: string;
}

const HEADER = new Set(['reporting_entity_name', 'reporting_entity_type', 'last_updated_on', 'version']);
/** A single reporting structure larger than this is refused (a corrupt or hostile file). */
const MAX_ELEMENT_BYTES = 512 * 1024 * 1024;

const CAP_NONE = 0;
const CAP_KEY = 1;
const CAP_VALUE = 2;
const CAP_ELEMENT = 3;

function plan(ctx: ElementContext, raw: unknown, path: string): TocReportingPlan | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, 'reporting plan is not an object; dropped');
    return null;
  }
  const p: TocReportingPlan = {
    plan_name: text(raw.plan_name).trim(),
    plan_id_type: text(raw.plan_id_type).trim().toLowerCase(),
    plan_id: text(raw.plan_id).trim(),
    plan_market_type: text(raw.plan_market_type).trim().toLowerCase(),
  };
  for (const k of ['issuer_name', 'plan_sponsor_name'] as const) if (text(raw[k]).trim()) p[k] = text(raw[k]).trim();
  if (!p.plan_name && !p.plan_id) report(ctx, 'missing_field', path, 'reporting plan has neither plan_name nor plan_id');
  return p;
}

/** Normalises one `reporting_structure[]` element; problems go to `ctx`. */
export function normalizeReportingStructure(ctx: ElementContext, raw: unknown, index: number): TocReportingStructure | null {
  const path = `$.reporting_structure[${index}]`;
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, 'reporting structure is not an object; dropped');
    return null;
  }
  const plans = Array.isArray(raw.reporting_plans) ? raw.reporting_plans : [];
  if (plans.length === 0) report(ctx, 'missing_field', `${path}.reporting_plans`, 'no reporting_plans');
  const files = Array.isArray(raw.in_network_files) ? raw.in_network_files : [];
  const out: TocReportingStructure = { index, offset: ctx.offset, reporting_plans: [], in_network_files: [], in_network_descriptions: [] };
  plans.forEach((p, k) => {
    const n = plan(ctx, p, `${path}.reporting_plans[${k}]`);
    if (n) out.reporting_plans.push(n);
  });
  files.forEach((f, k) => {
    const location = isObject(f) ? text(f.location).trim() : '';
    if (location) {
      out.in_network_files.push(location);
      out.in_network_descriptions.push(isObject(f) ? text(f.description).trim() : '');
    } else report(ctx, 'missing_field', `${path}.in_network_files[${k}].location`, 'in-network file without location; skipped');
  });
  return out;
}

/**
 * Reads an index from its decompressed JSON bytes, calling `onStructure` for every reporting
 * structure in file order; tolerated problems (an element that is not JSON, a plan without name)
 * go to `problems`.
 * @throws MrfReadError (file name and byte offset) when the bytes are not a JSON object or end early.
 */
export async function readTableOfContents(
  name: string,
  json: AsyncIterable<Buffer>,
  onStructure: (s: TocReportingStructure) => void | Promise<void>,
  problems: MrfProblem[],
): Promise<{ header: TocHeader; jsonBytes: number; structures: number }> {
  const header: TocHeader = { reporting_entity_name: '', reporting_entity_type: '', last_updated_on: '', version: '' };
  let base = 0; // offset of the current chunk
  let started = false;
  let done = false;
  let depth = 0;
  let inStr = false;
  let esc = false;
  let expectKey = false;
  let key = '';
  let inArray = false; // inside the root reporting_structure array
  let cap = CAP_NONE;
  let capStart = -1; // index in the current chunk, or 0 after a chunk boundary
  let capOffset = 0;
  let capParts: Buffer[] = [];
  let capBytes = 0;
  let index = 0;
  const pending: Array<{ bytes: Buffer; offset: number }> = [];

  const endCapture = (chunk: Buffer, end: number): Buffer => {
    capParts.push(chunk.subarray(capStart, end));
    const bytes = capParts.length === 1 ? capParts[0]! : Buffer.concat(capParts);
    capParts = [];
    capBytes = 0;
    cap = CAP_NONE;
    return bytes;
  };
  const rootValue = (bytes: Buffer): void => {
    if (!HEADER.has(key)) return;
    try {
      header[key as keyof TocHeader] = text(JSON.parse(bytes.toString('utf8').trim()) as unknown).trim();
    } catch {
      problems.push({ code: 'invalid_json', path: `$.${key}`, offset: capOffset, message: `root value of ${key} is not valid JSON; ignored` });
    }
  };

  for await (const chunk of json) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inStr) {
        if (esc) esc = false;
        else if (c === 0x5c) esc = true;
        else if (c === 0x22) {
          inStr = false;
          if (cap === CAP_KEY) key = JSON.parse(`"${endCapture(chunk, i).toString('utf8')}"`) as string;
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (!started) {
        if (base + i < 3 && (c === 0xef || c === 0xbb || c === 0xbf)) continue; // UTF-8 BOM
        if (c !== 0x7b) throw new MrfReadError(name, base + i, 'not a JSON object: the index must start with {');
        started = true;
        depth = 1;
        expectKey = true;
        continue;
      }
      if (done) throw new MrfReadError(name, base + i, 'data after the end of the root object');
      if (depth === 1) {
        if (expectKey) {
          if (c === 0x22) {
            inStr = true;
            cap = CAP_KEY;
            capStart = i + 1;
          } else if (c === 0x3a) expectKey = false;
          else if (c === 0x7d) done = true;
          else if (c !== 0x2c || key === '') throw new MrfReadError(name, base + i, `expected a key, found '${String.fromCharCode(c)}'`);
          continue;
        }
        if (c === 0x2c || c === 0x7d) {
          if (cap === CAP_VALUE) rootValue(endCapture(chunk, i));
          expectKey = true;
          if (c === 0x7d) done = true;
          continue;
        }
        if (cap === CAP_NONE && HEADER.has(key)) {
          cap = CAP_VALUE;
          capStart = i;
          capOffset = base + i;
        }
        if (key === 'reporting_structure' && c === 0x5b) {
          inArray = true;
          index = 0;
        }
      } else if (inArray && depth === 2 && cap === CAP_NONE && c !== 0x2c && c !== 0x5d) {
        cap = CAP_ELEMENT;
        capStart = i;
        capOffset = base + i;
      }
      if (c === 0x22) inStr = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d || (c === 0x2c && depth === 2)) {
        if (c !== 0x2c) depth--;
        if (inArray && depth === 2 && cap === CAP_ELEMENT && c !== 0x2c) {
          pending.push({ bytes: endCapture(chunk, i + 1), offset: capOffset });
        } else if (inArray && depth === 2 && cap === CAP_ELEMENT) {
          pending.push({ bytes: endCapture(chunk, i), offset: capOffset }); // a scalar element
        } else if (inArray && depth === 1 && c === 0x5d) {
          if (cap === CAP_ELEMENT) pending.push({ bytes: endCapture(chunk, i), offset: capOffset });
          inArray = false;
        }
      }
    }
    if (cap !== CAP_NONE) {
      capParts.push(chunk.subarray(capStart));
      capBytes += chunk.length - capStart;
      capStart = 0;
      if (capBytes > MAX_ELEMENT_BYTES) throw new MrfReadError(name, capOffset, `reporting structure larger than ${MAX_ELEMENT_BYTES} bytes`);
    }
    base += chunk.length;
    for (const el of pending) {
      const ctx: ElementContext = { offset: el.offset, problems };
      let value: unknown;
      try {
        value = JSON.parse(el.bytes.toString('utf8'));
      } catch (e) {
        report(ctx, 'invalid_json', `$.reporting_structure[${index++}]`, `element is not valid JSON (${(e as Error).message}); dropped`);
        continue;
      }
      const s = normalizeReportingStructure(ctx, value, index++);
      if (s) await onStructure(s);
    }
    pending.length = 0;
  }
  if (!started) throw new MrfReadError(name, base, 'empty file: no JSON object');
  if (!done) throw new MrfReadError(name, base, 'truncated JSON: the root object is not closed');
  return { header, jsonBytes: base, structures: index };
}
