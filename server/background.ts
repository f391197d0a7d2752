import type { Logger } from './log.ts';

/**
 * Work that runs after the answer was sent (a code whose sending must not show in the answer's time). Failures are
 * logged, never thrown at a request; `settled()` waits for what is under way (closing the app, tests).
 */
export class Background {
  private readonly running = new Set<Promise<void>>();
  private readonly log: Logger;
  constructor(log: Logger) {
    this.log = log;
  }

  readonly run = (task: () => Promise<void>): void => {
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => this.log.error({ err }, 'background task failed'))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  };

  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
