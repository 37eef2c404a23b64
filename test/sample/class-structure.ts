/**
 * Test helper: the billing-class structure of each insurer's prices per service, read back from the
 * generated files independently of the generator (docs/methodology.md "Rows that count": distinct rate rows,
 * one per NPI or TIN, dollar types only, negotiated_rate > 0; `percentage` and `per diem` excluded).
 */
import { median, type Row } from './read-sample';

const DOLLAR = new Set(['negotiated', 'fee schedule', 'derived']);

/** One insurer's dollar rows for one service, split by billing class. */
export interface ClassStructure {
  /** Rows with billing_class `professional`. */
  professional: number;
  /** Rows with billing_class `institutional` or `both` (a `both` row passes the Institutional filter). */
  institutional: number;
  /** price(s, i) with both classes selected (docs/methodology.md "Per comparison unit"), USD. */
  medianAll: number;
  /** Lowest and highest professional rate, USD (NaN without professional rows). */
  professionalMin: number;
  professionalMax: number;
  /** Median with the Institutional filter (`institutional` or `both` rows), USD; null without any. */
  medianInstitutional: number | null;
  /** Providers (NPI, or `TIN:<digits>`) of the institutional rows. */
  institutionalProviders: string[];
}

/** Per billing code, the structure of one file's dollar rows (rows as read-sample.ts rateRows gives them). */
export function classStructures(rows: readonly Row[]): Map<string, ClassStructure> {
  const by = new Map<string, Row[]>();
  for (const r of rows) {
    if (!DOLLAR.has(r.negotiatedType.toLowerCase()) || !(r.rate > 0)) continue;
    const list = by.get(r.code) ?? [];
    list.push(r);
    by.set(r.code, list);
  }
  const out = new Map<string, ClassStructure>();
  for (const [code, list] of by) {
    const inst = list.filter((r) => r.billingClass !== 'professional');
    const prof = list.filter((r) => r.billingClass === 'professional').map((r) => r.rate);
    out.set(code, {
      professional: prof.length,
      professionalMin: prof.length ? Math.min(...prof) : NaN,
      professionalMax: prof.length ? Math.max(...prof) : NaN,
      institutional: inst.length,
      medianAll: median(list.map((r) => r.rate)),
      medianInstitutional: inst.length ? median(inst.map((r) => r.rate)) : null,
      institutionalProviders: [...new Set(inst.map((r) => r.provider))],
    });
  }
  return out;
}

/** Arithmetic mean of a non-empty list. */
export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Structures of one snapshot: insurer id -> billing code -> structure. */
export type SnapshotStructures = ReadonlyMap<string, ReadonlyMap<string, ClassStructure>>;

/** Codes priced in the professional class by some insurer and in the institutional class by some insurer. */
export function twoClassCodes(all: SnapshotStructures): Set<string> {
  const prof = new Set<string>();
  const inst = new Set<string>();
  for (const m of all.values()) {
    for (const [code, s] of m) {
      if (s.professional > 0) prof.add(code);
      if (s.institutional > 0) inst.add(code);
    }
  }
  return new Set([...prof].filter((c) => inst.has(c)));
}

/**
 * Breaches of the shared class structure, as `code insurer P=.. I=..` lines: on a two-class code,
 * an insurer with dollar rows must have at least `ratio` professional rows per institutional row
 * (and so at least one professional row).
 */
export function structureBreaches(all: SnapshotStructures, ratio = 2): string[] {
  const out: string[] = [];
  for (const code of twoClassCodes(all)) {
    for (const [id, m] of all) {
      const s = m.get(code);
      if (s && (s.professional === 0 || s.professional < ratio * s.institutional)) out.push(`${code} ${id} P=${s.professional} I=${s.institutional}`);
    }
  }
  return out;
}

/**
 * Breaches of the price band, as `code insurer +x.x%` lines (deviation from the competitors' mean of
 * all-classes medians, docs/methodology.md, Per comparison unit): a competitor beyond ±`band`, the reference insurer
 * outside [`refLow`, `refHigh`]. Codes without a competitor are skipped (no market average).
 */
export function bandBreaches(all: SnapshotStructures, reference: string, band = 0.35, refLow = -0.05, refHigh = 0.3): string[] {
  const out: string[] = [];
  const codes = new Set([...all.values()].flatMap((m) => [...m.keys()]));
  for (const code of codes) {
    const competitors = [...all].filter(([id, m]) => id !== reference && m.has(code));
    if (competitors.length === 0) continue;
    const market = mean(competitors.map(([, m]) => (m.get(code) as ClassStructure).medianAll));
    for (const [id, m] of all) {
      const s = m.get(code);
      if (!s) continue;
      const dev = s.medianAll / market - 1;
      const ok = id === reference ? dev >= refLow && dev <= refHigh : Math.abs(dev) <= band;
      if (!ok) out.push(`${code} ${id} ${dev >= 0 ? '+' : ''}${(100 * dev).toFixed(1)}%`);
    }
  }
  return out;
}
