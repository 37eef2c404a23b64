/**
 * A run's plan (docs/converter.md, Plans): per insurer and snapshot, the in-network
 * files a conversion of the catalog reads after its filters and dedup, with the plans and
 * networks each serves and its size where known, written as JSON (`npm run plan -- --out
 * plan.json`) and read back by `npm run convert -- --plan plan.json`, which converts exactly
 * those files.
 *
 * Dedup: a file listed under many reporting structures, or by several tables of contents of one
 * insurer and snapshot, is one entry; its identity is its location without the URL signature
 * (plan-filter.ts unsignedLocation), so two signed links to one file are read once. The plans of
 * a file are those of the structures that list it (at most MAX_PLANS_PER_FILE shown, all counted).
 *
 * Shapes (RunPlan): `{ files: [{ insurer_id, product, snapshot, url, plans: [{ plan_name, plan_id,
 * plan_id_type, plan_market_type }], plan_count, networks, table_of_contents,
 * reporting_entity_name, bytes, network_name? }] }`; `snapshot` null when the catalog gives none (the file's own
 * `last_updated_on` month then decides it), `bytes` null when unknown (no HEAD asked, or the server
 * gave no Content-Length), `url` a local path relative to the plan file's folder or an http(s) URL.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { Catalog } from '../../../contract/files/catalog';
import type { ManifestReportingPlan } from '../../../contract/files/dataset';
import { isHttpUrl } from './catalog';
import { describeFetchError, fetchHeadSize, HttpError, mapLimit, type FetchPolicy } from './fetch-policy';
import { unsignedLocation } from './plan-filter';
import { plannedKey, plannedList, type PlannedFile, type PlannedToc, type ReadingPlan } from './plan-files';

/** Plans listed per file in a plan (the rest are counted in `plan_count`). */
export const MAX_PLANS_PER_FILE = 100;

/** A plan a file serves (CMS table-of-contents schema, `reporting_plans[]`). */
export interface RunPlanPlan {
  plan_name: string;
  plan_id: string;
  plan_id_type: string;
  plan_market_type: string;
}

/** One in-network file of a plan. */
export interface RunPlanFile {
  insurer_id: string;
  /** The insurer entry's product, as screens name it (contract/rules/product.ts productLabel); absent in plans before 0.18. */
  product?: string;
  /** `YYYY-MM` from the catalog, or null (the file's `last_updated_on` month). */
  snapshot: string | null;
  /** What to read: an http(s) URL (signed, as listed) or a local path (relative to the plan's folder). */
  url: string;
  /** The plans of the structures listing it, at most MAX_PLANS_PER_FILE; none for a file the catalog names directly. */
  plans: RunPlanPlan[];
  /** Plans counted over its structures (may exceed plans.length). */
  plan_count: number;
  /** The table of contents' descriptions of the file, where publishers name the network. */
  networks: string[];
  /** The table of contents that listed it first, as the catalog names it; null when named directly. */
  table_of_contents: string | null;
  /** That table's reporting_entity_name; null when named directly. */
  reporting_entity_name: string | null;
  /** Stored size, bytes (HEAD Content-Length or the local file's size); null when unknown. */
  bytes: number | null;
  /** The catalog entry's `network_name` pattern (docs/converter.md, Products); absent without one. */
  network_name?: string;
}

export interface RunPlan {
  files: RunPlanFile[];
}

/** What a plan summary says per insurer and snapshot. */
export interface RunPlanGroup {
  insurer_id: string;
  /** The files' product (RunPlanFile `product`), else the insurer id. */
  product: string;
  snapshot: string | null;
  files: number;
  /** Distinct plans of the reporting structures followed (planCountsOf). */
  plans: number;
  /** Sum of the known sizes, bytes. */
  bytes: number;
  /** Files of unknown size. */
  unknown: number;
}

const planKey = (p: RunPlanPlan): string => `${p.plan_id_type}|${p.plan_id}|${p.plan_name}|${p.plan_market_type}`;
const shortPlan = (p: Pick<ManifestReportingPlan, 'plan_name' | 'plan_id' | 'plan_market_type'> & { plan_id_type?: string }): RunPlanPlan => ({
  plan_name: p.plan_name,
  plan_id: p.plan_id,
  plan_id_type: p.plan_id_type ?? '',
  plan_market_type: p.plan_market_type,
});

interface Draft {
  file: RunPlanFile;
  location: string;
  seen: Set<string>;
}

/**
 * The plan of a reading plan (plan-files.ts planFiles): files deduped per insurer and snapshot by
 * unsigned location, in first-listed order, each with its product (`productOf` an insurer id),
 * plans, networks and table of contents; `bytes` null (see planSizes). `planDir`: the folder local
 * paths are written relative to.
 */
export function runPlanOf(reading: ReadingPlan, planDir: string, productOf: (insurerId: string) => string): RunPlan {
  const structuresOf = new Map<number, Array<{ toc: PlannedToc; plans: ManifestReportingPlan[]; count: number }>>();
  for (const toc of reading.tocs) {
    for (const s of toc.structures) {
      for (const k of s.planned) {
        const list = structuresOf.get(k) ?? [];
        list.push({ toc, plans: s.reporting_plans, count: s.plan_count });
        structuresOf.set(k, list);
      }
    }
  }
  const drafts = new Map<string, Draft>();
  for (const [k, f] of reading.files.entries()) {
    const key = plannedKey(f);
    let d = drafts.get(key);
    if (!d) {
      const toc = structuresOf.get(k)?.[0]?.toc;
      d = {
        location: f.location,
        seen: new Set(),
        file: {
          insurer_id: f.insurerId,
          product: productOf(f.insurerId),
          snapshot: f.snapshot ?? null,
          url: isHttpUrl(f.location) ? f.location : path.relative(planDir, f.location) || '.',
          plans: [],
          plan_count: 0,
          networks: [],
          table_of_contents: f.tableOfContents ?? null,
          reporting_entity_name: toc ? toc.reportingEntityName : null,
          bytes: null,
          ...(f.networkName !== undefined ? { network_name: f.networkName } : {}),
        },
      };
      drafts.set(key, d);
    }
    for (const n of f.descriptions ?? []) if (!d.file.networks.includes(n)) d.file.networks.push(n);
    for (const s of structuresOf.get(k) ?? []) {
      for (const p of s.plans) {
        const short = shortPlan(p);
        const pk = planKey(short);
        if (d.seen.has(pk)) continue;
        d.seen.add(pk);
        d.file.plan_count++;
        if (d.file.plans.length < MAX_PLANS_PER_FILE) d.file.plans.push(short);
      }
      // plans of the structure beyond those it kept (table-of-contents.ts MAX_PLANS_PER_STRUCTURE)
      d.file.plan_count += s.count - s.plans.length;
    }
  }
  return { files: [...drafts.values()].map((d) => d.file) };
}

/**
 * Fills `bytes` of every file of `plan` (in place): a local file's size; for an http(s) URL a HEAD
 * request's Content-Length when `head` (at most `policy.concurrency` at once), a failed or refused
 * request leaving null. A host that a request could not reach (a network error, a time-out, not an
 * HTTP answer) is asked nothing more, so a plan made offline ends at once instead of retrying every
 * file. `planDir` resolves local paths.
 * @returns the files whose size could not be asked, with the reason (`HTTP 403`, `fetch failed (ENOTFOUND)`,
 *   `host unreachable`).
 */
export async function planSizes(plan: RunPlan, planDir: string, policy: FetchPolicy, head: boolean): Promise<Array<{ url: string; reason: string }>> {
  const failed: Array<{ url: string; reason: string }> = [];
  const unreachable = new Set<string>();
  await mapLimit(plan.files, Math.max(1, policy.concurrency), async (f) => {
    if (!isHttpUrl(f.url)) {
      f.bytes = await stat(path.resolve(planDir, f.url)).then((s) => (s.isFile() ? s.size : null), () => null);
      return;
    }
    if (!head) return;
    const host = new URL(f.url).host;
    if (unreachable.has(host)) {
      failed.push({ url: unsignedLocation(f.url), reason: 'host unreachable' });
      return;
    }
    try {
      f.bytes = await fetchHeadSize(f.url, policy);
    } catch (e) {
      if (!(e instanceof HttpError)) unreachable.add(host);
      failed.push({ url: unsignedLocation(f.url), reason: describeFetchError(e).split('\n')[0]! });
    }
  });
  return failed;
}

const groupKey = (insurerId: string, snapshot: string | null | undefined): string => `${insurerId}|${snapshot ?? ''}`;

/**
 * Distinct plans per insurer and snapshot (key `insurer|snapshot`) over the reporting structures
 * followed: exact up to the plans a structure keeps (table-of-contents.ts MAX_PLANS_PER_STRUCTURE),
 * the plans beyond counted per structure.
 */
export function planCountsOf(reading: ReadingPlan): Map<string, number> {
  const seen = new Map<string, Set<string>>();
  const beyond = new Map<string, number>();
  for (const t of reading.tocs) {
    const key = groupKey(t.insurerId, t.snapshot);
    const set = seen.get(key) ?? new Set<string>();
    seen.set(key, set);
    for (const s of t.structures) {
      for (const p of s.reporting_plans) set.add(planKey(shortPlan(p)));
      beyond.set(key, (beyond.get(key) ?? 0) + s.plan_count - s.reporting_plans.length);
    }
  }
  return new Map([...seen].map(([k, set]) => [k, set.size + (beyond.get(k) ?? 0)]));
}

/**
 * Per insurer and snapshot, in the plan's order: files, distinct plans (`planCounts`, planCountsOf:
 * 0 for a group without a table of contents), known bytes and files of unknown size.
 */
export function summarizePlan(plan: RunPlan, planCounts: ReadonlyMap<string, number>): RunPlanGroup[] {
  const groups = new Map<string, RunPlanGroup>();
  for (const f of plan.files) {
    const key = groupKey(f.insurer_id, f.snapshot);
    let g = groups.get(key);
    if (!g) {
      g = { insurer_id: f.insurer_id, product: f.product ?? f.insurer_id, snapshot: f.snapshot, files: 0, plans: planCounts.get(key) ?? 0, bytes: 0, unknown: 0 };
      groups.set(key, g);
    }
    g.files++;
    if (f.bytes === null) g.unknown++;
    else g.bytes += f.bytes;
  }
  return [...groups.values()];
}

const planSchema = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['insurer_id', 'url'],
        properties: {
          insurer_id: { type: 'string', minLength: 1 },
          product: { type: 'string' },
          network_name: { type: 'string', minLength: 1 },
          snapshot: { anyOf: [{ type: 'null' }, { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }] },
          url: { type: 'string', minLength: 1 },
          plans: {
            type: 'array',
            items: {
              type: 'object',
              required: ['plan_name', 'plan_id', 'plan_market_type'],
              properties: {
                plan_name: { type: 'string' },
                plan_id: { type: 'string' },
                plan_id_type: { type: 'string' },
                plan_market_type: { type: 'string' },
              },
            },
          },
          plan_count: { type: 'integer', minimum: 0 },
          networks: { type: 'array', items: { type: 'string' } },
          table_of_contents: { type: ['string', 'null'] },
          reporting_entity_name: { type: ['string', 'null'] },
          bytes: { type: ['integer', 'null'] },
        },
      },
    },
  },
} as const;

const validatePlan = new Ajv({ allErrors: false, strict: false }).compile(planSchema);

/** A plan file that cannot be used; the message names the file and the field. */
export class PlanError extends Error {
  override name = 'PlanError';
}

/**
 * Reads the plan at `planPath` as the converter's reading plan for `catalog`: exactly its files,
 * in its order, each under its insurer and snapshot; a file reached through a table of contents
 * keeps it (a failure to read it is then recorded and the run goes on, as for a listed file), and
 * the files of one table with the same plans form one reporting structure of the manifest. A file
 * listed twice for one insurer and snapshot (a plan edited by hand) is read once, with a warning in
 * `warnings` (plan-files.ts plannedList).
 * @throws PlanError when the file is unreadable, not JSON, not a plan (`<file>: field files.3.url
 *   ...`), or names an insurer the catalog does not list.
 */
export async function readRunPlan(planPath: string, catalog: Catalog, warnings: string[] = []): Promise<ReadingPlan> {
  let data: unknown;
  try {
    data = JSON.parse((await readFile(planPath, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new PlanError(`${planPath}: cannot read plan (${(e as Error).message})`);
  }
  if (!validatePlan(data)) {
    const e = validatePlan.errors![0]!;
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(root)';
    throw new PlanError(`${planPath}: field ${where} ${e.message ?? 'is invalid'}`);
  }
  const plan = data as unknown as RunPlan;
  const insurers = new Set(catalog.insurers.map((i) => i.id));
  const planDir = path.dirname(path.resolve(planPath));
  const files: PlannedFile[] = [];
  const add = plannedList(files, warnings, `the plan ${planPath}`);
  const tocs = new Map<string, PlannedToc>();
  const structures = new Map<string, PlannedToc['structures'][number]>();
  for (const [k, f] of plan.files.entries()) {
    if (!insurers.has(f.insurer_id)) throw new PlanError(`${planPath}: files[${k}].insurer_id ${f.insurer_id} is not among the catalog's insurers`);
    const location = isHttpUrl(f.url) ? f.url : path.resolve(planDir, f.url);
    const toc = f.table_of_contents ?? undefined;
    const index = add({
      insurerId: f.insurer_id,
      ...(f.snapshot ? { snapshot: f.snapshot } : {}),
      url: f.url,
      location,
      ...(toc ? { tableOfContents: toc, descriptions: [...(f.networks ?? [])] } : {}),
      ...(f.network_name !== undefined ? { networkName: f.network_name } : {}),
    });
    if (!toc) continue;
    const tocKey = `${f.insurer_id}|${f.snapshot ?? ''}|${toc}`;
    let t = tocs.get(tocKey);
    if (!t) {
      t = { insurerId: f.insurer_id, ...(f.snapshot ? { snapshot: f.snapshot } : {}), tableOfContents: toc, reportingEntityName: f.reporting_entity_name ?? '', structures: [] };
      tocs.set(tocKey, t);
    }
    const plans = (f.plans ?? []).map(shortPlan);
    const sKey = `${tocKey}|${JSON.stringify(plans)}|${f.plan_count ?? plans.length}`;
    let s = structures.get(sKey);
    if (!s) {
      s = { reporting_plans: plans, plan_count: f.plan_count ?? plans.length, files: [], planned: [] };
      structures.set(sKey, s);
      t.structures.push(s);
    }
    if (s.planned.includes(index)) continue;
    s.files.push(s.files.length);
    s.planned.push(index);
  }
  return { files, tocs: [...tocs.values()] };
}
