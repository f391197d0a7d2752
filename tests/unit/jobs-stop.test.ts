/**
 * The app's timers stopped (server/jobs.ts): the stop resolves only once every run in progress has ended, so that the
 * app closes its database after the last statement of a run (a message sent by a run cut off by the close would not be
 * recorded as sent, and would go again).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { startJobs, type JobOptions } from '../../server/jobs.ts';
import { until } from '../helpers/wait.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a stop while the messages are being sent waits for that run; no run starts after it', async () => {
  const events: string[] = [];
  let release: () => void = () => undefined;
  let dispatches = 0;
  const messages = {
    remind: async () => 0,
    dispatch: async () => {
      dispatches++;
      events.push('sending');
      await new Promise<void>((r) => (release = r));
      events.push('sent and recorded');
      return 1;
    },
  };
  const services = {
    messages,
    deliveries: { checkReports: async () => 0 },
    push: { dispatch: async () => 0 },
  } as unknown as JobOptions['services'];
  const db = { kind: 'postgres', query: async () => [], one: async () => undefined } as unknown as Db;
  const config = { ...loadConfig({ DATA_DIR: dir }), DISPATCH_EVERY_MS: 10 };
  const stop = startJobs({
    config,
    db,
    log: pino({ level: 'silent' }),
    services,
    freezeJob: false,
    upkeep: false,
    reconcileJob: false,
    calendarJob: false,
  });
  await until(() => dispatches === 1, 2000);
  const stopped = stop().then(() => events.push('stopped'));
  await new Promise((r) => setTimeout(r, 50));
  expect(events).toEqual(['sending']); // the run is still going, and the stop waits for it
  release();
  await stopped;
  expect(events).toEqual(['sending', 'sent and recorded', 'stopped']);
  await new Promise((r) => setTimeout(r, 50));
  expect(dispatches).toBe(1);
});
