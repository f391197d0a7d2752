import type { Accounts } from './accounts/service.ts';
import type { Config } from './config.ts';
import { sealAtStart } from './crypto/seal-at-start.ts';
import type { Keyring } from './crypto/sealed.ts';
import type { Db } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo } from './db/seed.ts';
import { announceMissing } from './draws/commitments.ts';
import type { Logger } from './log.ts';
import { adoptUploadFiles } from './uploads/service.ts';

export type PrepareOptions = { config: Config; db: Db; log: Logger; keys: Keyring; accounts: Accounts };

/**
 * The start-up work on the data, before the app takes a request (docs/decisions/063-where-the-weight-is.md): each step
 * runs once per start, in this order, and does nothing when there is nothing to do. A failure here is a failure to
 * start (server/startup.ts names it).
 */
export async function prepareData({ config, db, log, keys, accounts }: PrepareOptions): Promise<void> {
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  // Seeds and generated tickets' secrets kept in clear before, or sealed by a previous SECRET_KEY, sealed now
  // (docs/decisions/049-secrets-sealed-at-rest.md).
  const sealed = await sealAtStart(db, keys);
  if (sealed.seeds || sealed.secrets) log.info({ seeds: sealed.seeds, secrets: sealed.secrets }, 'secrets sealed');
  if (sealed.unopenable)
    log.error(
      { values: sealed.unopenable },
      'sealed secrets this SECRET_KEY cannot open: start with the key that sealed them as SECRET_KEY_PREVIOUS (docs/rules/security.md#6-secrets-and-configuration)',
    );
  if (config.ADMIN_PHONE && config.ADMIN_PASSWORD) await accounts.ensureSuperuser(config.ADMIN_PHONE, config.ADMIN_PASSWORD);
  if (config.SEED_DEMO) await seedDemo(db, log, { staff: !config.ADMIN_PHONE, keys });
  // Every published lottery on sale shows the commitment of its draw (docs/rules/draws.md#2-the-seed-and-its-commitment).
  const announced = await announceMissing(db, keys);
  if (announced) log.info({ lotteries: announced }, 'draws announced');
  // Pictures stored as files before they were kept in the database (docs/decisions/040-uploads-in-the-database.md).
  const adopted = await adoptUploadFiles(db, config.uploadsDir);
  if (adopted) log.info({ pictures: adopted }, 'pictures moved into the database');
}
