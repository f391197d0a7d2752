import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Refusal } from '../../shared/api/refusal.ts';
import { refusal } from '../../shared/api/refusals.ts';
import type { Db } from '../db/index.ts';
import { CODE_RULES, CODE_TTL_SEC, generateCode, MAX_CODE_ATTEMPTS } from '../../shared/one-time-codes.ts';

export type Purpose = keyof typeof CODE_RULES;

/** A code checked: it passed, or why not. */
export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'exhausted' | 'none';
/** Codes are stored as an HMAC under the server secret: a leaked table does not give them away. */
export class Codes {
  private readonly db: Db;
  private readonly secret: string;
  constructor(db: Db, secret: string) {
    this.db = db;
    this.secret = secret;
  }

  private digest(code: string): string {
    return createHmac('sha256', `otp:${this.secret}`).update(code).digest('base64');
  }

  /** Seconds until a new code may be sent for this user and purpose (0: now). */
  async waitBeforeResend(userId: number, purpose: Purpose, subject = ''): Promise<number> {
    const row = await this.db.one<{ wait: number }>(
      `SELECT GREATEST(0, CEIL(EXTRACT(EPOCH FROM (created_at + make_interval(secs => $4) - now()))))::int AS wait
         FROM one_time_codes WHERE user_id = $1 AND purpose = $2 AND subject = $3 ORDER BY created_at DESC LIMIT 1`,
      [userId, purpose, subject, CODE_RULES[purpose].resendAfterSec],
    );
    return row?.wait ?? 0;
  }

  /** Whether an unused code of this purpose is still valid (not expired; wrong tries do not end the hold). */
  async hasLiveCode(userId: number, purpose: Purpose, subject = ''): Promise<boolean> {
    const row = await this.db.one(
      `SELECT 1 AS live FROM one_time_codes
        WHERE user_id = $1 AND purpose = $2 AND subject = $3 AND consumed_at IS NULL AND expires_at > now() LIMIT 1`,
      [userId, purpose, subject],
    );
    return row !== undefined;
  }

  /** Issues a fresh code, retiring any earlier one of the same purpose. Caller checks the resend wait first. */
  async issue(userId: number, purpose: Purpose, subject = ''): Promise<string> {
    const code = generateCode(purpose);
    await this.db.tx(async (tx) => {
      await tx.query(
        `UPDATE one_time_codes SET consumed_at = now() WHERE user_id = $1 AND purpose = $2 AND subject = $3 AND consumed_at IS NULL`,
        [userId, purpose, subject],
      );
      await tx.query(
        `INSERT INTO one_time_codes (user_id, purpose, subject, code_hash, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        [userId, purpose, subject, this.digest(code), CODE_TTL_SEC],
      );
    });
    return code;
  }

  /**
   * Checks a code: each try counts (at most MAX_CODE_ATTEMPTS per code), an expired or used code never passes,
   * and a correct code is consumed so it works once.
   */
  async check(userId: number, purpose: Purpose, code: string, subject = ''): Promise<CodeCheck> {
    const row = await this.db.one<{ id: number; code_hash: string; attempts: number; expired: boolean }>(
      `SELECT id, code_hash, attempts, expires_at <= now() AS expired FROM one_time_codes
        WHERE user_id = $1 AND purpose = $2 AND subject = $3 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      [userId, purpose, subject],
    );
    if (!row) return 'none';
    if (row.expired) return 'expired';
    const counted = await this.db.one<{ attempts: number }>(
      `UPDATE one_time_codes SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2 AND consumed_at IS NULL RETURNING attempts`,
      [row.id, MAX_CODE_ATTEMPTS],
    );
    if (!counted) return 'exhausted';
    const a = Buffer.from(this.digest(code)),
      b = Buffer.from(row.code_hash);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return counted.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'wrong';
    const consumed = await this.db.one(`UPDATE one_time_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id`, [
      row.id,
    ]);
    return consumed ? 'ok' : 'none';
  }
}

/** What a check that did not pass answers: the code under `otp` is wrong, expired, tried too often, or none waits. */
export const codeRefusal = (result: Exclude<CodeCheck, 'ok'>): Refusal => refusal(`otp_${result}`);
