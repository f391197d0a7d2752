import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Uploads } from './service.ts';

/** The picture upload is the raw image as the body (not a form), so everything else of the API stays JSON. */
export function uploadRoutes(uploads: Uploads): Router {
  const r = Router();
  route(r, api.uploadImage, async ({ body, user, req }) => ({
    success: true as const,
    data: await uploads.store(body, user?.user_id ?? null, { t: req.t, ip: req.ip ?? 'unknown' }),
  }));
  route(r, api.uploadNid, async ({ body, user, req }) => ({
    success: true as const,
    data: await uploads.store(body, user.user_id, { t: req.t, ip: req.ip ?? 'unknown' }, 'nid'),
  }));
  route(r, api.getUpload, async ({ params, user, req, res }) => {
    const file = await uploads.read(params.id, user, req.t);
    // An identity document is never kept by a browser or a proxy; a profile picture may be, by its viewer's browser.
    const cache = file.kind === 'nid' ? 'no-store' : 'private, max-age=3600';
    res.set({ 'Content-Type': file.contentType, 'Cache-Control': cache, 'X-Content-Type-Options': 'nosniff' }).send(file.data);
  });
  return r;
}
