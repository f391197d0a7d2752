/**
 * The reality check's journey (reality-check.spec.ts) needs a session that started long ago, and a journey cannot reach
 * the server's embedded database. So, in the journeys' database only (tests/e2e/prepare-data.ts), a login of a player
 * whose e-mail starts with OLD_SESSION_EMAIL is recorded as made OLD_SESSION_MINUTES ago: his reminder is due as soon
 * as he has logged in. Every other player's sessions start when they log in, as in the product.
 */
import type { Db } from '../../server/db/index.ts';

export const OLD_SESSION_EMAIL = 'old-session.';
export const OLD_SESSION_MINUTES = 125;

/** Installs the trigger that backdates those players' sessions (again is harmless). */
export async function oldSessions(db: Db): Promise<void> {
  await db.query(`CREATE OR REPLACE FUNCTION e2e_old_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND email LIKE '${OLD_SESSION_EMAIL}%') THEN
    NEW.created_at := now() - interval '${OLD_SESSION_MINUTES} minutes';
  END IF;
  RETURN NEW;
END $$`);
  await db.query('DROP TRIGGER IF EXISTS e2e_old_sessions ON refresh_tokens');
  await db.query('CREATE TRIGGER e2e_old_sessions BEFORE INSERT ON refresh_tokens FOR EACH ROW EXECUTE FUNCTION e2e_old_sessions()');
}
