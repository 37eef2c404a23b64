/**
 * Deterministic pseudo-random numbers for the sample generator.
 *
 * Every random choice is drawn from a generator seeded by a *key* (e.g. `['price', 'aetna', '70551']`),
 * so adding a draw in one place never shifts the values drawn elsewhere: the sample stays stable
 * when the generator grows. Algorithm: FNV-1a 32-bit hash of the key, then mulberry32.
 */
import { mulberry32 } from '../../contract/rules/prng';

/** Global seed mixed into every key; change it to get a different (still deterministic) sample. */
export const SAMPLE_SEED = 'compete-sample-v1';

/** FNV-1a 32-bit hash of a string (unsigned). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded generator of uniform numbers in [0, 1) with small helpers. */
export class Rng {
  /** Uniform in [0, 1) (contract/rules/prng.ts mulberry32). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array; throws on an empty one. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty array');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Standard normal deviate (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Multiplicative noise exp(N(0, sigma)), median 1. */
  logNormal(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}

/** The generator for a key: same key, same sequence, on every machine and run. */
export function rngFor(...key: Array<string | number>): Rng {
  return new Rng(fnv1a(`${SAMPLE_SEED}|${key.join('|')}`));
}
