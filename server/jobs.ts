import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import { scheduleHousekeeping } from './db/housekeeping.ts';
import { scheduleUpkeep } from './db/maintenance.ts';
import { DRAND_TIMEOUT_MS, scheduleBeaconFetch } from './draws/beacon-job.ts';
import { scheduleFreeze } from './draws/freeze-job.ts';
import { scheduleCalendar } from './games/calendar-job.ts';
import type { Logger } from './log.ts';
import { scheduleReports } from './notify/service.ts';
import { scheduleDispatch } from './messages/service.ts';
import { scheduleReconciliation } from './payments/reconcile.ts';
import { notScheduled, type Stop } from './repeat.ts';
import type { Services } from './services.ts';

/** The timers a caller may turn off (createApp's options): each runs unless it is false. */
export type JobSwitches = {
  /** false: no timer sends the messages' SMS nor asks for their delivery reports (tests call messages.dispatch() and deliveries.checkReports() themselves). */
  sendMessages?: boolean | undefined;
  /** false: no freeze job (the API tests, which freeze through the draw or freezeDue). */
  freezeJob?: boolean | undefined;
  /** false: no upkeep of the embedded database (server/db/maintenance.ts; the API tests, whose statement counts it would disturb). */
  upkeep?: boolean | undefined;
  /**
   * false: no reconciliation timer (the API tests, which call payments.reconcile() themselves: a timer's run between a
   * test's steps would lease the payment the test is about).
   */
  reconcileJob?: boolean | undefined;
  /** false: no game calendar (the API tests, which call gameCalendar.runOnce() themselves). */
  calendarJob?: boolean | undefined;
};

export type JobOptions = JobSwitches & {
  config: Config;
  db: Db;
  log: Logger;
  services: Pick<Services, 'payments' | 'payouts' | 'messages' | 'push' | 'gameCalendar' | 'deliveries'>;
};

/**
 * The app's timers (docs/decisions/063-where-the-weight-is.md). Housekeeping runs on every instance; the rest only
 * where the API runs (no API_BASE_URL). Returns what stops them all.
 */
export function startJobs({ config, db, log, services, sendMessages, freezeJob, upkeep, reconcileJob, calendarJob }: JobOptions): Stop {
  const apiHere = !config.API_BASE_URL;
  const stopHousekeeping = scheduleHousekeeping(db, log);
  // The embedded database's autovacuum, which PGlite lacks (docs/rules/operations.md#9-the-embedded-databases-upkeep).
  const stopUpkeep = upkeep !== false ? scheduleUpkeep(db, log) : notScheduled;
  const stopReconciling =
    apiHere && reconcileJob !== false
      ? scheduleReconciliation(services.payments, services.payouts, log, config.RECONCILE_FIRST_MS)
      : notScheduled;
  const stopSending =
    apiHere && sendMessages !== false ? scheduleDispatch(services.messages, log, services.push, config.DISPATCH_EVERY_MS) : notScheduled;
  // The SMS gateways' delivery reports (docs/rules/messages.md#7-sms-gateways), with the sending.
  const stopReports = apiHere && sendMessages !== false ? scheduleReports(services.deliveries, log) : notScheduled;
  // The draws' beacons fetched from drand and verified (docs/rules/draws.md#4-the-beacon), where DRAND_URLS names relays.
  const stopBeacons = apiHere ? scheduleBeaconFetch({ db, log, relays: config.drandRelays, timeoutMs: DRAND_TIMEOUT_MS }) : notScheduled;
  // The tickets frozen at the end of sales (docs/rules/draws.md#3-the-tickets), on every instance that runs the API.
  const stopFreezing = apiHere && freezeJob !== false ? scheduleFreeze({ db, log }) : notScheduled;
  // The games' draws kept on sale and drawn when due (docs/rules/games.md#3-a-draws-life), where the API runs.
  const stopCalendar = apiHere && calendarJob !== false ? scheduleCalendar(services.gameCalendar, log) : notScheduled;
  // Each waits for its run in progress, so that the database closes after the last one (server/repeat.ts).
  const stops = [stopCalendar, stopHousekeeping, stopUpkeep, stopReconciling, stopSending, stopReports, stopBeacons, stopFreezing];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
