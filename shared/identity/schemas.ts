/**
 * Identity details for payment (docs/rules/accounts-and-codes.md#13-identity-details): the NID number, photos of the
 * NID's front and back (uploads of kind 'nid'), and a phone number. Built from the field rules of shared/fields.ts;
 * messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { nidWith, phoneWith, v } from '../fields.ts';

/** A value that must be there: blank is "fill in all the fields" (the spec's one message for a missing field). */
const filled = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .refine((s) => s.trim() !== '', v('identityIncomplete'))
    .pipe(schema);

/** An upload of this product named by its id. */
const uploadId = filled(z.string().trim().pipe(z.uuid()));

/** `PUT /api/v1/my-identity/`: the player's identity details, all required. */
export const IdentityBody = z.strictObject({
  nid: filled(nidWith('identityNidInvalid')),
  nid_front: uploadId,
  nid_back: uploadId,
  phone: filled(phoneWith('identityPhoneInvalid')),
});

/** The identity details as the player himself and staff see them; the photos are served only to them. */
export const Identity = z.object({
  user_id: z.number().int(),
  nid: z.string(),
  phone: z.string(),
  nid_front_url: z.string(),
  nid_back_url: z.string(),
  updated_at: z.string(),
});

/** The page's form (/payment/system): the text fields; the two photos are files beside them, uploaded first. */
export const IdentityForm = IdentityBody.pick({ nid: true, phone: true });
