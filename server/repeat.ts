import type { Logger } from './log.ts';

/**
 * A timer of this instance (docs/decisions/063-where-the-weight-is.md): `run` once `firstMs` after the start (none:
 * first at `everyMs`) and then every `everyMs`, one run at a time (a run still going when the next is due is not
 * started twice), without keeping the process alive. A failed run is logged as `failed` and the next one tries again.
 * Returns what stops it: no run starts after, and it resolves once a run still going has ended, so that a stopping
 * app closes its database only after (a run cut off by the close could leave an SMS sent but not recorded as sent).
 */
export function repeat(o: { run: () => Promise<unknown>; firstMs?: number; everyMs: number; log: Logger; failed: string }): Stop {
  let running: Promise<void> | undefined;
  let stopped = false;
  const once = () => {
    if (running || stopped) return;
    running = o
      .run()
      .then(
        () => undefined,
        (err: unknown) => void o.log.warn({ err }, o.failed),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const first = o.firstMs === undefined ? undefined : setTimeout(once, o.firstMs);
  const every = setInterval(once, o.everyMs);
  first?.unref();
  every.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}

/** What stops a timer of this instance: resolves once its run in progress, if any, has ended. */
export type Stop = () => Promise<void>;

/** A job that is not scheduled here: nothing to stop. */
export const notScheduled: Stop = async () => undefined;
