/**
 * The converter's reading plan (docs/converter.md, The catalog: `files[]`): every in-network file a catalog names,
 * directly (`url`) or through a table of contents (`table_of_contents`, its
 * `reporting_structure[].in_network_files` followed for the structures that serve a plan the
 * entry's `plans` (else the catalog's `filters.plans`) selects, all without it), kept when its
 * name passes the entry's `file_name` (else `filters.file_name`),
 * plus the reporting structures of each table for the manifest (`reporting_structures`,
 * contract/files/dataset.ts). A file listed more than once for one insurer and snapshot (twice in the
 * catalog's files, by two tables of contents, or by both) is planned once (plannedList): read twice,
 * its rows would count twice in `rates`.
 */
import type { Catalog, CatalogFile } from '../../../contract/files/catalog';
import type { ManifestReportingStructure } from '../../../contract/files/dataset';
import { resolveLocation } from './catalog';
import type { FetchPolicy } from './fetch-policy';
import type { ProblemLog } from '../common/problems';
import { fileNameMatcher, planMatcher, unsignedLocation } from './plan-filter';
import { readTocListing, type TocStructure } from './table-of-contents';

/** One in-network file to read, with where it came from. */
export interface PlannedFile {
  insurerId: string;
  snapshot?: string;
  /** Location as the catalog or table of contents wrote it (kept in the manifest). */
  url: string;
  /**
   * Local path or http(s) URL to read; a local path only from the catalog or a table of contents on
   * disk (a remote table's locations are http(s) URLs, table-of-contents.ts resolveListed).
   */
  location: string;
  /** The table of contents that led to it, as the catalog named it. */
  tableOfContents?: string;
  /** The descriptions the table of contents gives it (publishers name the network there). */
  descriptions?: string[];
  /** The catalog entry's `network_name` pattern: only the provider references of a matching network are kept (build-networks.ts). */
  networkName?: string;
}

/** A table of contents read while planning, with its files' indices into the plan. */
export interface PlannedToc {
  insurerId: string;
  snapshot?: string;
  tableOfContents: string;
  reportingEntityName: string;
  structures: Array<TocStructure & { planned: number[] }>;
}

/** The whole plan. */
export interface ReadingPlan {
  files: PlannedFile[];
  tocs: PlannedToc[];
}

/**
 * The identity of a planned file in a run: its insurer, snapshot and location without the URL's
 * signature (plan-filter.ts unsignedLocation, as the store's source key and the run plan's dedup),
 * so two signed links to one file are one file.
 */
export const plannedKey = (f: Pick<PlannedFile, 'insurerId' | 'snapshot' | 'location'>): string =>
  `${f.insurerId}|${f.snapshot ?? ''}|${unsignedLocation(f.location)}`;

/** Where a planned file was listed, for the warning of a repeat. */
const listedBy = (f: PlannedFile, direct: string): string => (f.tableOfContents ? `table of contents ${f.tableOfContents}` : direct);

/**
 * An adder of planned files onto `files` that plans each file once (plannedKey): a file already
 * planned is not added again (its table-of-contents descriptions join the first's) and a warning
 * saying where it was listed twice goes to `warnings`. `direct` names where a file without table
 * of contents was listed (`the catalog's files`, `the plan`). Returns the index of the planned file.
 */
export function plannedList(files: PlannedFile[], warnings: string[], direct: string): (f: PlannedFile) => number {
  const at = new Map<string, number>(files.map((f, k) => [plannedKey(f), k]));
  return (f) => {
    const key = plannedKey(f);
    const k = at.get(key);
    if (k === undefined) {
      at.set(key, files.push(f) - 1);
      return files.length - 1;
    }
    const first = files[k]!;
    if (first.descriptions) for (const d of f.descriptions ?? []) if (!first.descriptions.includes(d)) first.descriptions.push(d);
    warnings.push(`${f.url}: listed twice for insurer ${f.insurerId}${f.snapshot ? `, snapshot ${f.snapshot}` : ''} ` +
      `(by ${listedBy(first, direct)} and by ${listedBy(f, direct)}); read once`);
    return k;
  };
}

/**
 * The plans and file names a `files[]` entry reads: its own `plans` and `file_name` where it has
 * them, else the catalog's `filters.plans` and `filters.file_name` (docs/converter.md, Products).
 */
export function fileSelection(catalog: Catalog, f: CatalogFile): { plan: ReturnType<typeof planMatcher>; file: ReturnType<typeof fileNameMatcher> } {
  const fileName = f.file_name ?? catalog.filters?.file_name;
  return { plan: planMatcher(f.plans ?? catalog.filters?.plans), file: fileNameMatcher(fileName === undefined ? undefined : { file_name: fileName }) };
}

/**
 * Lists the files to read, each once (plannedList: a repeat is a warning); tables of contents are streamed now (their problems go to `problems`,
 * a listed location refused for its scheme among them: `refused_location`).
 * @throws MrfReadError naming a table of contents the catalog names that cannot be read.
 */
export async function planFiles(catalog: Catalog, baseDir: string, problems: ProblemLog, policy: FetchPolicy, tmpDir: string): Promise<ReadingPlan> {
  const files: PlannedFile[] = [];
  const add = plannedList(files, problems.warnings, "the catalog's files");
  const tocs: PlannedToc[] = [];
  for (const ins of catalog.insurers) {
    for (const f of ins.files) {
      const selection = fileSelection(catalog, f);
      if (f.url) {
        const location = resolveLocation(baseDir, f.url);
        if (!selection.file || selection.file(location)) add({ insurerId: ins.id, snapshot: f.snapshot, url: f.url, location, networkName: f.network_name });
      }
      if (!f.table_of_contents) continue;
      const label = f.table_of_contents;
      const listing = await readTocListing(resolveLocation(baseDir, label), label, policy, tmpDir, selection);
      for (const p of listing.problems) problems.add({ file: label, ...p });
      if (listing.structures.length === 0 && listing.structureCount > 0) {
        problems.warnings.push(`${label}: none of its ${listing.structureCount} reporting structures serves a plan and a file the catalog's filters select`);
      }
      // the plan's index of each file of the listing (a file planned before keeps its index)
      const planned = listing.files.map((loc) =>
        add({ insurerId: ins.id, snapshot: f.snapshot, url: loc.url, location: loc.location, tableOfContents: label, descriptions: loc.descriptions, networkName: f.network_name }));
      tocs.push({
        insurerId: ins.id,
        snapshot: f.snapshot,
        tableOfContents: label,
        reportingEntityName: listing.header.reporting_entity_name,
        structures: listing.structures.map((s) => ({ ...s, planned: s.files.map((k) => planned[k]!) })),
      });
    }
  }
  if (files.length === 0) problems.warnings.push('the catalog names no in-network file');
  return { files, tocs };
}

/**
 * The manifest's `reporting_structures`, given the source ids each planned file became (none when
 * it could not be read; one per JSON entry of a zip archive that bundles several).
 */
export function reportingStructures(tocs: PlannedToc[], sourceOf: ReadonlyArray<readonly number[]>): ManifestReportingStructure[] {
  return tocs.flatMap((t) =>
    t.structures.map((s) => ({
      insurer_id: t.insurerId,
      ...(t.snapshot ? { snapshot: t.snapshot } : {}),
      table_of_contents: t.tableOfContents,
      reporting_entity_name: t.reportingEntityName,
      reporting_plans: s.reporting_plans,
      plan_count: s.plan_count,
      in_network_files: s.files.length,
      source_ids: s.planned.flatMap((k) => sourceOf[k] ?? []),
    })),
  );
}
