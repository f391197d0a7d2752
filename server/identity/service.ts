import type { z } from 'zod';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type { Identity, IdentityBody } from '../../shared/identity/schemas.ts';
import type { Db } from '../db/index.ts';
import { uploadUrl } from '../uploads/service.ts';
import * as q from './queries.ts';

/**
 * A player's identity details for payment (docs/rules/accounts-and-codes.md#13-identity-details): he gives and reads
 * his own; staff read anyone's. The NID photos are his own uploads of kind 'nid', served only to him and to staff.
 */
export class Identities {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The user's identity details: the route lets a player ask for his own, staff for anyone's. */
  async of(userId: number): Promise<z.input<typeof Identity>> {
    const row = await q.identityOf(this.db, userId);
    if (!row) refuse('identity_not_found');
    return shown(row);
  }

  async save(userId: number, body: z.output<typeof IdentityBody>): Promise<z.input<typeof Identity>> {
    const own = await q.ownNidPhotos(this.db, userId, [body.nid_front, body.nid_back]);
    const [first, ...more] = [
      ...(body.nid_front === body.nid_back ? [refusal('nid_photos_same')] : []),
      ...(own.has(body.nid_front) ? [] : [refusal('nid_front_invalid')]),
      ...(own.has(body.nid_back) ? [] : [refusal('nid_back_invalid')]),
    ];
    if (first) refuse(first.refusal, { with: more });
    return shown(await q.saveIdentity(this.db, { userId, nid: body.nid, front: body.nid_front, back: body.nid_back, phone: body.phone }));
  }
}

const shown = (r: q.IdentityRow): z.input<typeof Identity> => ({
  user_id: r.user_id,
  nid: r.nid,
  phone: r.phone,
  nid_front_url: uploadUrl(r.nid_front),
  nid_back_url: uploadUrl(r.nid_back),
  updated_at: r.updated_at,
});
