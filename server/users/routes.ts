import { Router } from 'express';
import { requireUser } from '../http/auth.ts';
import { ApiError } from '../http/errors.ts';
import { idParam } from '../http/validate.ts';
import { publicUser, type Accounts } from '../accounts/service.ts';

export function userRoutes(accounts: Accounts): Router {
  const r = Router();
  // A player reads only his own profile; staff may read any.
  r.get('/v1/users/:id/', async (req, res) => {
    const me = requireUser(req);
    const id = idParam(req, 'id');
    if (id !== me.user_id && !me.is_staff) throw ApiError.detail(403, req.t('api:permissionDenied'), 'permission_denied');
    const user = await accounts.findById(id);
    if (!user) throw ApiError.detail(404, req.t('api:userNotFound'), 'not_found');
    res.json(publicUser(user));
  });
  return r;
}
