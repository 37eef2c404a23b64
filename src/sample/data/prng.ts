/**
 * A seeded pseudo-random generator (mulberry32) so the generated sample catalogue is the same on
 * every load and in every test. Returns numbers in [0, 1).
 */
import { mulberry32 } from '../../../contract/rules/prng';

export function seededRandom(seed: number): () => number {
  return mulberry32(seed);
}

/** Rounds to cents (USD with two decimals), as the sample prices are stored. */
export function cents(x: number): number {
  return Math.round(x * 100) / 100;
}
