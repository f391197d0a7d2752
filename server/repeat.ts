import type { Logger } from './log.ts';

/**
 * A timer of this instance (docs/decisions/063-where-the-weight-is.md): `run` once `firstMs` after the start (none:
 * first at `everyMs`) and then every `everyMs`, one run at a time (a run still going when the next is due is not
 * started twice), without keeping the process alive. A failed run is logged as `failed` and the next one tries again.
 * Returns what stops it.
 */
export function repeat(o: { run: () => Promise<unknown>; firstMs?: number; everyMs: number; log: Logger; failed: string }): () => void {
  let running = false;
  const once = () => {
    if (running) return;
    running = true;
    o.run()
      .catch((err: unknown) => o.log.warn({ err }, o.failed))
      .finally(() => {
        running = false;
      });
  };
  const first = o.firstMs === undefined ? undefined : setTimeout(once, o.firstMs);
  const every = setInterval(once, o.everyMs);
  first?.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
