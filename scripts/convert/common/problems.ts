/**
 * The problems a conversion tolerated (docs/converter.md, What it reads, and what it does with bad input), for `report.json`: every problem is
 * counted; the first `MAX_PER_KIND` of each (file, code) are kept in full with their JSON path and
 * byte offset, so a file with millions of bad rows still gives a report of bounded size.
 */

/** Problems kept in full per (file, code); the rest are only counted. */
export const MAX_PER_KIND = 200;

/** One tolerated problem. `offset` is a byte offset in the uncompressed JSON (-1 when not in a file). */
export interface Problem {
  file: string;
  code: string;
  message: string;
  path: string;
  offset: number;
}

/** `report.json` as written next to the manifest. */
export interface ConversionReport {
  created_at: string;
  problems_total: number;
  /** Counts by file, then by code. */
  counts: Record<string, Record<string, number>>;
  problems: Problem[];
  /** Files read through a table of contents or otherwise that could not be read, with the reason. */
  failed_files: Array<{ file: string; reason: string }>;
  warnings: string[];
}

/** Collects problems with bounded memory. */
export class ProblemLog {
  readonly kept: Problem[] = [];
  readonly counts: Record<string, Record<string, number>> = {};
  readonly failedFiles: Array<{ file: string; reason: string }> = [];
  readonly warnings: string[] = [];
  total = 0;

  add(p: Problem): void {
    this.total++;
    const byCode = (this.counts[p.file] ??= {});
    const n = (byCode[p.code] = (byCode[p.code] ?? 0) + 1);
    if (n <= MAX_PER_KIND) this.kept.push(p);
  }

  /**
   * Adds problems counted elsewhere (a parser thread): `counts` by code, `kept` the first of each
   * code in full; keeps at most MAX_PER_KIND per (file, code) overall.
   */
  addCounted(file: string, kept: Array<Omit<Problem, 'file'>>, counts: Record<string, number>): void {
    const total = Object.values(counts).reduce((a, n) => a + n, 0);
    this.merge({ total, counts: { [file]: counts }, kept: kept.map((p) => ({ file, ...p })), failed_files: [] });
  }

  /** Problems counted for one file. */
  countFor(file: string): number {
    return Object.values(this.counts[file] ?? {}).reduce((a, b) => a + b, 0);
  }

  /**
   * Adds what another log collected (a source partition's, source-store.ts PartitionProblems):
   * its counts, its kept problems (already at most MAX_PER_KIND per (file, code) there, and capped
   * again here), its failed files.
   */
  merge(other: { total: number; counts: Record<string, Record<string, number>>; kept: Problem[]; failed_files: Array<{ file: string; reason: string }> }): void {
    const before: Record<string, Record<string, number>> = {};
    for (const [file, byCode] of Object.entries(other.counts)) {
      before[file] = { ...this.counts[file] };
      const mine = (this.counts[file] ??= {});
      for (const [code, n] of Object.entries(byCode)) mine[code] = (mine[code] ?? 0) + n;
    }
    this.total += other.total;
    const taken: Record<string, number> = {};
    for (const p of other.kept) {
      const k = (taken[`${p.file}\n${p.code}`] = (taken[`${p.file}\n${p.code}`] ?? 0) + 1);
      if ((before[p.file]?.[p.code] ?? 0) + k <= MAX_PER_KIND) this.kept.push(p);
    }
    this.failedFiles.push(...other.failed_files);
  }

  toReport(createdAt: string): ConversionReport {
    return {
      created_at: createdAt,
      problems_total: this.total,
      counts: this.counts,
      problems: this.kept,
      failed_files: this.failedFiles,
      warnings: this.warnings,
    };
  }
}
