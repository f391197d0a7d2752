import { Agent } from 'undici';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { notScheduled, repeat, type Stop } from '../repeat.ts';
import * as cq from './commitment-queries.ts';
import { fetchBeacon, type FetchOptions } from './drand.ts';
import { QUICKNET } from './verifiable.ts';

/** How often the job runs; it also runs once shortly after the start (docs/rules/draws.md#4-the-beacon). */
export const BEACON_EVERY_MS = 30_000;
export const BEACON_FIRST_MS = 5_000;
/** How long one relay may take to answer (each relay of a run, in turn). */
export const DRAND_TIMEOUT_MS = 5_000;
/** At most this many draws are fetched for in one run; the rest wait for the next. */
export const BEACON_BATCH = 20;

/** The newest quicknet round whose time has come at `nowMs` (0 before genesis). */
export function roundAt(nowMs: number): number {
  const genesisMs = QUICKNET.genesisTime * 1000;
  if (nowMs < genesisMs) return 0;
  return Math.floor((nowMs - genesisMs) / (QUICKNET.period * 1000)) + 1;
}

export type BeaconJobOptions = {
  db: Db;
  log: Logger;
  /** drand relays' base URLs (DRAND_URLS), tried in order. */
  relays: readonly string[];
  /** Each relay's exchange must finish within this. */
  timeoutMs: number;
  /** For tests: what "now" is. */
  now?: () => number;
  dispatcher?: FetchOptions['dispatcher'];
  publicKey?: string;
};

/**
 * One run: every announced draw not drawn yet whose round has come and whose beacon value is missing gets its beacon
 * from a drand relay, verified against quicknet's key (server/draws/drand.ts), stored with its signature and
 * `beacon_entered_by` null (fetched by the server), audited `lottery.beacon` with no actor. Storing is one
 * conditional UPDATE (value still missing): instances running at once store it once, and the others record nothing.
 * A round no relay serves yet, or serves only with a bad signature, is tried again on the next run. Answers how many
 * values were stored.
 */
export async function runOnce(o: BeaconJobOptions): Promise<number> {
  if (o.relays.length === 0) return 0;
  const due = await cq.awaitingBeacon(o.db, roundAt((o.now ?? Date.now)()), BEACON_BATCH);
  let stored = 0;
  for (const d of due) {
    const round = Number(d.beacon_round);
    const beacon = await fetchBeacon(o.relays, round, {
      timeoutMs: o.timeoutMs,
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
      ...(o.publicKey ? { publicKey: o.publicKey } : {}),
      // A relay that answers something other than the round's beacon is worth a warning; one that has nothing yet is not.
      onMiss: (relay, reason, kind) =>
        o.log[kind === 'invalid' ? 'warn' : 'info'](
          { lottery: Number(d.lottery_id), round, relay, reason },
          'drand relay gave no verified beacon',
        ),
    });
    if (!beacon) continue;
    const done = await o.db.tx(async (tx) => {
      const id = await cq.storeFetchedBeacon(tx, Number(d.lottery_id), { round, value: beacon.randomness, signature: beacon.signature });
      if (id === undefined) return false;
      await recordAudit(tx, {
        actorId: null,
        action: 'lottery.beacon',
        entity: 'lottery',
        entityId: String(d.lottery_id),
        before: { beacon_round: round, beacon_value: null },
        after: { beacon_round: round, beacon_value: beacon.randomness, beacon_signature: beacon.signature, fetched: true },
      });
      return true;
    });
    if (done) stored += 1;
  }
  return stored;
}

/**
 * The beacon job of this instance (docs/rules/draws.md#4-the-beacon): 5 s after start and every 30 s, a run of
 * `runOnce`. Runs on every instance; storing is idempotent, so instances need no lease. No relays (DRAND_URLS empty,
 * the default outside production): nothing is scheduled and staff enter the value. A failed run is logged and the
 * next one tries again.
 */
export function scheduleBeaconFetch(o: Omit<BeaconJobOptions, 'dispatcher'>): Stop {
  if (o.relays.length === 0) return notScheduled;
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: o.timeoutMs } });
  const run = async () => {
    const n = await runOnce({ ...o, dispatcher: agent });
    if (n) o.log.info({ lotteries: n }, 'drand beacons fetched and verified');
  };
  const stop = repeat({ run, firstMs: BEACON_FIRST_MS, everyMs: BEACON_EVERY_MS, log: o.log, failed: 'drand beacon fetch failed' });
  return async () => {
    await stop();
    await agent.close();
  };
}
