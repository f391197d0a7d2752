/**
 * Anonymous pages are the same for every visitor of a language until the data changes, so they are rendered
 * once and kept for a short time (docs/rules/limits.md#5-timeouts-caches-and-housekeeping). Per-visitor values (CSP nonce, CSRF token) are left as
 * placeholders in the cached HTML and filled in for each response.
 */
export const NONCE_PLACEHOLDER = 'BHNONCEPLACEHOLDER0000000';
export const CSRF_PLACEHOLDER = 'BHCSRFPLACEHOLDER00000000';

type Entry = { html: string; status: number; at: number };

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
  ) {}

  /** One render per key at a time, however many visitors ask at once. */
  async get(key: string, render: () => Promise<{ html: string; status: number }>): Promise<Entry> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit;
    let p = this.inflight.get(key);
    if (!p) {
      p = render()
        .then((r) => {
          const e = { ...r, at: Date.now() };
          if (this.ttlMs > 0 && r.status === 200) {
            if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
            this.entries.set(key, e);
          }
          return e;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  /** Called when lotteries or results change, so the next visitor sees them at once. */
  clear(): void {
    this.entries.clear();
  }
}

export function fill(html: string, nonce: string, csrf: string): string {
  return html.replaceAll(NONCE_PLACEHOLDER, nonce).replaceAll(CSRF_PLACEHOLDER, csrf);
}
