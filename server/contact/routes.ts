import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Contact } from './service.ts';

export function contactRoutes(contact: Contact): Endpoints {
  const r = new Endpoints();
  route(r, api.contact, async ({ body, user, caller }) => {
    const { lng, t, ip } = caller;
    await contact.send(body, { userId: user?.user_id ?? null, language: lng, ip });
    // The answer's own words, in the caller's language: the edge words a success (refusals are run()'s to word).
    return { detail: t('api:contactSent') };
  });
  return r;
}
