/**
 * A seeded pseudo-random generator (mulberry32) so the generated sample catalogue is the same on
 * every load and in every test. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rounds to cents (USD with two decimals), as the sample prices are stored. */
export function cents(x: number): number {
  return Math.round(x * 100) / 100;
}
