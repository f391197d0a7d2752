import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { hit, LIMITS } from '../http/rate-limit.ts';
import { parseBody } from '../http/validate.ts';
import type { Logger } from '../log.ts';

const ContactBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  email: z.email('api:emailInvalid').max(254),
  message: z.string().trim().min(1).max(2000),
});

export type ContactMessage = { name: string; email: string; message: string };

/**
 * The contact form (player-side spec §2): the message is stored, rate-limited per address, and forwarded to
 * support where mail is configured. The sender is told it was sent once it is stored; a failed forward is
 * logged and the stored message stays for staff.
 */
export function contactRoutes(db: Db, log: Logger, forward: ((m: ContactMessage) => Promise<unknown>) | null): Router {
  const r = Router();
  r.post('/v1/contact/', async (req, res) => {
    const wait = await hit(db, `contact:ip:${req.ip}`, LIMITS.contactPerIp);
    if (wait) throw new ApiError(429, { detail: req.t('api:tooManyRequests', { seconds: wait }), code: 'throttled', wait }, { 'Retry-After': String(wait) });
    const body = parseBody(req, ContactBody);
    await db.query('INSERT INTO contact_messages (user_id, name, email, message, language) VALUES ($1, $2, $3, $4, $5)', [
      req.user?.user_id ?? null, body.name, body.email.toLowerCase(), body.message, req.language === 'bn' ? 'bn' : 'en',
    ]);
    if (forward) {
      await forward({ name: body.name, email: body.email, message: body.message }).catch((err: unknown) =>
        log.error({ error: (err as Error).message }, 'contact message stored but not forwarded'),
      );
    }
    res.status(201).json({ detail: req.t('api:contactSent') });
  });
  return r;
}
