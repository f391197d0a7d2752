/**
 * The instance's timers (server/repeat.ts): a first run after `firstMs` (without it, at the first interval), then
 * every `everyMs`; never two runs at once; a failed run logged and the next one made; nothing after stop, and the stop
 * resolves only once the run in progress has ended (the app closes its database after it).
 */
import pino from 'pino';
import { repeat } from '../../server/repeat.ts';
import { until } from '../helpers/wait.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('first after firstMs, then every everyMs, one run at a time, until stopped', async () => {
  let runs = 0;
  let running = 0;
  let most = 0;
  const stop = repeat({
    run: async () => {
      runs++;
      most = Math.max(most, ++running);
      await sleep(45); // longer than the interval: the ticks meanwhile start nothing
      running--;
    },
    firstMs: 5,
    everyMs: 10,
    log: pino({ level: 'silent' }),
    failed: 'x failed',
  });
  await until(() => runs >= 3, 2000);
  await stop();
  expect(running).toBe(0); // the run in progress ended before the stop resolved
  await sleep(60);
  const after = runs;
  await sleep(60);
  expect(most).toBe(1);
  expect(runs).toBe(after);
});

test('a failed run is logged under its sentence and the next one runs; without firstMs the first run waits an interval', async () => {
  const lines: { msg: string; err?: { message: string } }[] = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  let runs = 0;
  const started = Date.now();
  let firstAt = 0;
  const stop = repeat({
    run: async () => {
      if (++runs === 1) {
        firstAt = Date.now() - started;
        throw new Error('boom');
      }
    },
    everyMs: 40,
    log,
    failed: 'the job failed',
  });
  await until(() => runs >= 2, 2000);
  await stop();
  expect(firstAt).toBeGreaterThanOrEqual(35);
  expect(lines[0]).toMatchObject({ msg: 'the job failed', err: { message: 'boom' } });
});

test('a stop during a run waits for it to end; a stop with no run in progress resolves at once', async () => {
  let release: () => void = () => undefined;
  const events: string[] = [];
  let runs = 0;
  const stop = repeat({
    run: async () => {
      runs++;
      events.push('run started');
      await new Promise<void>((r) => (release = r));
      events.push('run ended');
    },
    firstMs: 1,
    everyMs: 1_000,
    log: pino({ level: 'silent' }),
    failed: 'x failed',
  });
  await until(() => runs === 1, 2000);
  const stopped = stop().then(() => events.push('stopped'));
  await sleep(30);
  expect(events).toEqual(['run started']);
  release();
  await stopped;
  expect(events).toEqual(['run started', 'run ended', 'stopped']);

  const idle = repeat({ run: async () => void runs++, everyMs: 1_000, log: pino({ level: 'silent' }), failed: 'x failed' });
  await idle();
  await sleep(20);
  expect(runs).toBe(1);
});

test('a stop waits for a run in progress at most stopWaitMs: a run stuck on a gateway does not hold the app past its deadline', async () => {
  let runs = 0;
  const stop = repeat({
    run: async () => {
      runs++;
      await new Promise(() => undefined); // never ends
    },
    firstMs: 1,
    everyMs: 1_000,
    log: pino({ level: 'silent' }),
    failed: 'x failed',
    stopWaitMs: 80,
  });
  await until(() => runs === 1, 2000);
  const started = Date.now();
  await stop();
  // Without the bound the stop would wait for ever (the test's timeout); with it, it waited for the run that long.
  expect(Date.now() - started).toBeGreaterThanOrEqual(70);
});
