import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Contact } from './service.ts';

export function contactRoutes(contact: Contact): Router {
  const r = Router();
  route(r, api.contact, async ({ body, user, req }) => {
    await contact.send(body, { userId: user?.user_id ?? null, language: req.language }, { t: req.t, ip: req.ip ?? 'unknown' });
    return { detail: req.t('api:contactSent') };
  });
  return r;
}
