/** The refusals of the uploads endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const uploadsRefusals = refusals({
  image_required: { status: 400, field: 'image', text: 'api:imageRequired', when: 'The body is empty: no picture was sent.' },
  image_type: { status: 400, field: 'image', text: 'api:imageType', when: 'The bytes are not a JPEG, PNG or WebP image.' },
  image_unreadable: { status: 400, field: 'image', text: 'api:imageUnreadable', when: 'The picture does not decode.' },
  upload_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:notFound',
    when: 'No picture has this id, or it is neither the caller’s nor is he staff.',
  },
});
