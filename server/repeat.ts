import type { Logger } from './log.ts';

/**
 * A timer of this instance (docs/decisions/063-where-the-weight-is.md): `run` once `firstMs` after the start (none:
 * first at `everyMs`) and then every `everyMs`, one run at a time (a run still going when the next is due is not
 * started twice), without keeping the process alive. A failed run is logged as `failed` and the next one tries again.
 * Returns what stops it: no run starts after, and it resolves once a run still going has ended, so that a stopping
 * app closes its database only after (a run cut off by the close could leave an SMS sent but not recorded as sent).
 * It waits `stopWaitMs` at most (STOP_WAIT_MS unless told): a run stuck on a slow gateway must not keep a stopping
 * instance past its deadline (docs/rules/operations.md#4-stopping), which would end it without closing its database.
 */
export function repeat(o: {
  run: () => Promise<unknown>;
  firstMs?: number;
  everyMs: number;
  log: Logger;
  failed: string;
  stopWaitMs?: number;
}): Stop {
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
    if (!running) return;
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (waited = setTimeout(resolve, o.stopWaitMs ?? STOP_WAIT_MS)))]);
    clearTimeout(waited);
  };
}

/** How long a stop waits at most for a run in progress: well within the 15 s a stopping instance has after its drain. */
export const STOP_WAIT_MS = 5_000;

/** What stops a timer of this instance: resolves once its run in progress, if any, has ended. */
export type Stop = () => Promise<void>;

/** A job that is not scheduled here: nothing to stop. */
export const notScheduled: Stop = async () => undefined;
