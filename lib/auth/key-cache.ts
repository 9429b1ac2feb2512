/**
 * A short-lived, in-process memory of API keys already resolved to their shop and role, so hot API
 * traffic does not read `api_keys` and `tenants` on every request (two round trips of the three a
 * small request would otherwise make).
 *
 * Terminology: an *entry* is keyed by the SHA-256 hash of the key (the key itself is never kept),
 * and trusted for `KEY_CACHE_MS`. Revoking a key (or changing its role) in this process forgets its
 * entries at once through `forgetApiKey`; another process (a second web server) stops accepting a
 * revoked key within `KEY_CACHE_MS`. Unknown keys are never remembered, so a key created by the CLI
 * works on its first request.
 */

/** How long a resolved key is trusted without asking the database. Default 5 s. */
export const KEY_CACHE_MS = 5_000;

/** Entries kept at most; the oldest is dropped first. */
const MAX_ENTRIES = 10_000;

export interface CachedKey<T> {
  apiKeyId: string;
  value: T;
  expiresAt: number;
}

/** A map from key hash to what it resolved to, with expiry and forgetting by key id. */
export class KeyCache<T> {
  private readonly entries = new Map<string, CachedKey<T>>();

  constructor(
    private readonly ttlMs = KEY_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): T | null {
    const entry = this.entries.get(hash);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return null;
    }
    return entry.value;
  }

  set(hash: string, apiKeyId: string, value: T): void {
    this.entries.delete(hash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { apiKeyId, value, expiresAt: this.now() + this.ttlMs });
  }

  /** Forgets every entry of one key (revoked, or its role changed). */
  forget(apiKeyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.apiKeyId === apiKeyId) this.entries.delete(hash);
  }

  /** Forgets every entry whose value matches (e.g. a shop's keys after its settings changed). */
  forgetWhere(matches: (value: T) => boolean): void {
    for (const [hash, entry] of this.entries) if (matches(entry.value)) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
