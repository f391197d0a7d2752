/**
 * The instance's timers (server/repeat.ts): a first run after `firstMs` (without it, at the first interval), then
 * every `everyMs`; never two runs at once; a failed run logged and the next one made; nothing after stop.
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
  stop();
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
  stop();
  expect(firstAt).toBeGreaterThanOrEqual(35);
  expect(lines[0]).toMatchObject({ msg: 'the job failed', err: { message: 'boom' } });
});
