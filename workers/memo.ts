/**
 * Answers kept per open dataset. A dataset never changes while it is open (a local snapshot opens a
 * new context), so an answer that depends only on the dataset and its parameters is computed once
 * and served again: the comparison's pages and sorts share one pricing pass, and returning to a
 * screen costs nothing (docs/architecture.md, "Answers kept per dataset").
 *
 * Least recently used entries go first once the weights of the kept entries exceed the capacity; a
 * weight is what the caller says an entry holds (records, or 1 for a small answer). A promise that
 * rejects is dropped, so a failed read is tried again on the next call.
 */
/**
 * The weight of an answer kept in a ResultMemo: its rows (an array's length, or the lengths of an
 * object's array fields added up: `items`, `records`, ...), at least 1.
 */
export function answerWeight(value: unknown): number {
  if (Array.isArray(value)) return Math.max(1, value.length);
  if (value === null || typeof value !== 'object') return 1;
  let rows = 0;
  for (const field of Object.values(value)) if (Array.isArray(field)) rows += field.length;
  return Math.max(1, rows);
}

export class ResultMemo {
  private readonly entries = new Map<string, { value: unknown; weight: number }>();
  private held = 0;

  /** @param capacity the total weight kept (e.g. records); at least one entry is always kept. */
  constructor(private readonly capacity: number) {}

  /**
   * The value kept under `key`, else `compute()`'s, kept with `weight` (a function of the value,
   * for values whose size is known once computed). Concurrent callers of a key pending as a
   * promise share it.
   */
  get<T>(key: string, compute: () => T, weight: number | ((value: Awaited<T>) => number) = 1): T {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const value = compute();
    const entry = { value: value as unknown, weight: typeof weight === 'number' ? weight : 1 };
    this.put(key, entry);
    if (value instanceof Promise) {
      value.then(
        (v: Awaited<T>) => {
          if (typeof weight === 'function' && this.entries.get(key) === entry) this.reweigh(key, entry, weight(v));
        },
        () => {
          if (this.entries.get(key) === entry) this.drop(key, entry);
        },
      );
    } else if (typeof weight === 'function') {
      this.reweigh(key, entry, weight(value as Awaited<T>));
    }
    return value;
  }

  /** Forgets every entry (benchmarks measure the computation itself with it). */
  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** The number of entries kept. */
  get size(): number {
    return this.entries.size;
  }

  private put(key: string, entry: { value: unknown; weight: number }): void {
    this.entries.set(key, entry);
    this.held += entry.weight;
    this.evict(key);
  }

  private reweigh(key: string, entry: { value: unknown; weight: number }, weight: number): void {
    this.held += weight - entry.weight;
    entry.weight = weight;
    this.evict(key);
  }

  private drop(key: string, entry: { weight: number }): void {
    this.entries.delete(key);
    this.held -= entry.weight;
  }

  /** Drops the oldest entries but `keep` until the kept weight fits. */
  private evict(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.held <= this.capacity) return;
      if (key !== keep) this.drop(key, entry);
    }
  }
}
