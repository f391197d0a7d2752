/** The uploads endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { PICTURE_TYPES, UploadParams, UploadReply } from './schemas.ts';

export const uploadsEndpoints = {
  // Pictures and contact ----------------------------------------------------------------------------
  uploadImage: endpoint({
    method: 'POST',
    path: '/api/v1/upload-image/',
    access: 'public',
    tag: 'uploads',
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    refuses: ['throttled', 'image_required', 'image_type', 'image_unreadable'],
    summary:
      'Stores a picture sent as the raw body (JPEG, PNG or WebP, at most 2 MiB; the type is read from the bytes), re-encoded without metadata, at most 640 px on its longest side; bytes that do not decode: 400.',
  }),
  uploadNid: endpoint({
    method: 'POST',
    path: '/api/v1/upload-nid/',
    access: 'user',
    tag: 'uploads',
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    refuses: ['throttled', 'image_required', 'image_type', 'image_unreadable'],
    summary:
      "Stores a photo of the caller's NID card (raw JPEG, PNG or WebP, at most 2 MiB), re-encoded without metadata (no GPS position), at most 2,000 px on its longest side; served only to him and to staff.",
  }),
  getUpload: endpoint({
    method: 'GET',
    path: '/api/v1/uploads/:id/',
    access: 'user',
    tag: 'uploads',
    params: UploadParams,
    reply: null,
    refuses: ['upload_not_found'],
    summary: 'A stored picture, for its owner and for staff only; an NID photo with Cache-Control: no-store.',
  }),
} as const;
