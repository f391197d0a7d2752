import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Contact } from './service.ts';

export function contactRoutes(contact: Contact): Endpoints {
  const r = new Endpoints();
  route(r, api.contact, async ({ body, user, caller }) => {
    await contact.send(body, { userId: user?.user_id ?? null, language: caller.lng }, { t: caller.t, ip: caller.ip });
    return { detail: caller.t('api:contactSent') };
  });
  return r;
}
