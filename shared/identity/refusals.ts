/** The refusals of the identity endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const identityRefusals = refusals({
  identity_not_found: {
    status: 404,
    code: 'not_found',
    text: 'profile:api.identityNotFound',
    when: 'The player has not given his identity details yet.',
  },
  nid_photos_same: {
    status: 400,
    field: 'nid_back',
    text: 'profile:api.samePhoto',
    when: 'The back of the NID is the same upload as its front.',
  },
  nid_front_invalid: {
    status: 400,
    field: 'nid_front',
    text: 'profile:api.photoInvalid',
    when: "The front of the NID is not the caller's own NID upload.",
  },
  nid_back_invalid: {
    status: 400,
    field: 'nid_back',
    text: 'profile:api.photoInvalid',
    when: "The back of the NID is not the caller's own NID upload.",
  },
});
