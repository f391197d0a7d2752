import type { Db } from './index.ts';
import * as m001 from './migrations/001-init.ts';
import * as m002 from './migrations/002-contact.ts';
import * as m003 from './migrations/003-purchases.ts';
import * as m004 from './migrations/004-claims.ts';
import * as m005 from './migrations/005-identity.ts';
import * as m006 from './migrations/006-generated-tickets.ts';
import * as m007 from './migrations/007-prize-notifications.ts';
import * as m008 from './migrations/008-transactions-by-user.ts';
import * as m009 from './migrations/009-insiders.ts';
import * as m010 from './migrations/010-session-versions.ts';
import * as m011 from './migrations/011-known-devices.ts';
import * as m012 from './migrations/012-bkash-payments.ts';
import * as m013 from './migrations/013-bkash-statements.ts';
import * as m014 from './migrations/014-draw-commitments.ts';
import * as m015 from './migrations/015-beacon-signature.ts';
import * as m016 from './migrations/016-numbers-draw.ts';
import * as m017 from './migrations/017-draw-proposals.ts';
import * as m018 from './migrations/018-play-limits.ts';
import * as m019 from './migrations/019-messages.ts';
import * as m020 from './migrations/020-reality-check.ts';
import * as m021 from './migrations/021-uploads-in-database.ts';
import * as m022 from './migrations/022-lottery-tallies.ts';
import * as m030 from './migrations/030-statement-confirm.ts';
import * as m023 from './migrations/023-ticket-freeze.ts';
import * as m027 from './migrations/027-sealed-secrets.ts';
import * as m029 from './migrations/029-trx-id-checks.ts';
import * as m025 from './migrations/025-transaction-approval-proposals.ts';
import * as m031 from './migrations/031-prize-withholding.ts';
import * as m032 from './migrations/032-date-of-birth.ts';
import * as m034 from './migrations/034-push-subscriptions.ts';
import * as m033 from './migrations/033-time-out.ts';
import * as m035 from './migrations/035-games.ts';
import * as m036 from './migrations/036-runs.ts';
import * as m037 from './migrations/037-slip-draws-asked.ts';
import * as m038 from './migrations/038-bkash-agreements.ts';
import * as m039 from './migrations/039-sms-gateways.ts';
import * as m040 from './migrations/040-prize-payouts.ts';
import * as m041 from './migrations/041-unfinished-purchases-index.ts';
import * as m042 from './migrations/042-lottery-facts-version.ts';

/** Ordered, append-only: a released migration is never edited, a change is a new entry. */
const MIGRATIONS: readonly { id: string; sql: string }[] = [
  { id: '001-init', sql: m001.sql },
  { id: '002-contact', sql: m002.sql },
  { id: '003-purchases', sql: m003.sql },
  { id: '004-claims', sql: m004.sql },
  { id: '005-identity', sql: m005.sql },
  { id: '006-generated-tickets', sql: m006.sql },
  { id: '007-prize-notifications', sql: m007.sql },
  { id: '008-transactions-by-user', sql: m008.sql },
  { id: '009-insiders', sql: m009.sql },
  { id: '010-session-versions', sql: m010.sql },
  { id: '011-known-devices', sql: m011.sql },
  { id: '012-bkash-payments', sql: m012.sql },
  { id: '013-bkash-statements', sql: m013.sql },
  { id: '014-draw-commitments', sql: m014.sql },
  { id: '015-beacon-signature', sql: m015.sql },
  { id: '016-numbers-draw', sql: m016.sql },
  { id: '017-draw-proposals', sql: m017.sql },
  { id: '018-play-limits', sql: m018.sql },
  { id: '019-messages', sql: m019.sql },
  { id: '020-reality-check', sql: m020.sql },
  { id: '021-uploads-in-database', sql: m021.sql },
  { id: '022-lottery-tallies', sql: m022.sql },
  { id: '030-statement-confirm', sql: m030.sql },
  { id: '023-ticket-freeze', sql: m023.sql },
  { id: '027-sealed-secrets', sql: m027.sql },
  { id: '029-trx-id-checks', sql: m029.sql },
  { id: '025-transaction-approval-proposals', sql: m025.sql },
  { id: '031-prize-withholding', sql: m031.sql },
  { id: '032-date-of-birth', sql: m032.sql },
  { id: '034-push-subscriptions', sql: m034.sql },
  { id: '033-time-out', sql: m033.sql },
  { id: '035-games', sql: m035.sql },
  { id: '036-runs', sql: m036.sql },
  { id: '037-slip-draws-asked', sql: m037.sql },
  { id: '038-bkash-agreements', sql: m038.sql },
  { id: '039-sms-gateways', sql: m039.sql },
  { id: '040-prize-payouts', sql: m040.sql },
  { id: '041-unfinished-purchases-index', sql: m041.sql },
  { id: '042-lottery-facts-version', sql: m042.sql },
];

const LOCK_KEY = 7_041_977; // any constant; serialises migrations across app instances

/**
 * Runs fn in one transaction that holds the start-up lock: instances starting together on one database take turns
 * (migrations, then the demo seed). No statement timeout inside: a long migration, or waiting for another
 * instance's, is not an error.
 */
export async function underStartLock<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.tx(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    return fn(tx);
  });
}

export async function migrate(db: Db): Promise<string[]> {
  return underStartLock(db, async (tx) => {
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}

/**
 * Statements end with ';' at the end of a line; a function's body between `$$` lines is one statement with its own
 * semicolons. Comment lines (`--`) are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((s) => s.trim()).filter(Boolean);
}
