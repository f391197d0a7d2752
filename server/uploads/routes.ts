import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Uploads } from './service.ts';

/** The picture upload is the raw image as the body (not a form), so everything else of the API stays JSON. */
export function uploadRoutes(uploads: Uploads): Endpoints {
  const r = new Endpoints();
  route(r, api.uploadImage, async ({ body, user, caller }) => ({
    success: true as const,
    data: await uploads.store(body, user?.user_id ?? null, caller.ip),
  }));
  route(r, api.uploadNid, async ({ body, user, caller }) => ({
    success: true as const,
    data: await uploads.store(body, user.user_id, caller.ip, 'nid'),
  }));
  route(r, api.getUpload, async ({ params, user }) => {
    const file = await uploads.read(params.id, user);
    // An identity document is never kept by a browser or a proxy; a profile picture may be, by its viewer's browser.
    const cache = file.kind === 'nid' ? 'no-store' : 'private, max-age=3600';
    return {
      file: { headers: { 'Content-Type': file.contentType, 'Cache-Control': cache, 'X-Content-Type-Options': 'nosniff' }, body: file.data },
    };
  });
  return r;
}
