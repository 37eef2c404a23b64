/**
 * The app tokens ended by a logout before their expiry (docs/deployment.md, Signing in): a token
 * is a signed JWT that would otherwise stay valid for its whole lifetime (8 h,
 * auth-config.ts TOKEN_LIFETIME_SECONDS), as a cookie or as a Bearer header, so the server keeps
 * the id of every token logged out until that token expires, and refuses it meanwhile
 * (session.ts). The list lives in this process's memory, one per server: the server is a single
 * process, and a restart empties the list (with a random key, COMPETE_JWT_SECRET unset, a restart
 * ends every token anyway; with a fixed key, a token logged out before the restart is accepted
 * again until it expires).
 */

/** Seconds between two sweeps of the expired entries (revoke). */
const SWEEP_INTERVAL_SECONDS = 60;

/** Seconds since the epoch, as in a JWT's `exp`. */
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The ids of the tokens logged out, each with its expiry (seconds since the epoch). */
export class RevokedTokens {
  private readonly expiries = new Map<string, number>();
  private lastSweep = 0;

  /**
   * Refuses token `id` until `exp` (seconds since the epoch), its own expiry: past it, the token
   * is refused as expired anyway, and the entry goes at a later sweep.
   */
  revoke(id: string, exp: number, now = nowSeconds()): void {
    if (exp > now) this.expiries.set(id, Math.max(exp, this.expiries.get(id) ?? 0));
    if (now - this.lastSweep >= SWEEP_INTERVAL_SECONDS) this.sweep(now);
  }

  /** Whether token `id` was logged out and has not expired yet. */
  has(id: string, now = nowSeconds()): boolean {
    const exp = this.expiries.get(id);
    return exp !== undefined && exp > now;
  }

  /** Entries held, expired ones not yet swept included. */
  get size(): number {
    return this.expiries.size;
  }

  /** Drops the entries of the tokens expired by `now`. */
  sweep(now = nowSeconds()): void {
    this.lastSweep = now;
    for (const [id, exp] of this.expiries) if (exp <= now) this.expiries.delete(id);
  }
}
