import { z } from 'zod';

/** Pictures the product stores (profile pictures; NID photos to come): the types and the size limit, once. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;

export const isPictureFile = (f: { type: string; size: number }): boolean =>
  (PICTURE_TYPES as readonly string[]).includes(f.type) && f.size > 0 && f.size <= PICTURE_MAX_BYTES;

export const UploadReply = z.object({ success: z.literal(true), data: z.object({ id: z.uuid(), url: z.string() }) });
/** A picture's address names it by the id the API handed out, in lower case; any other spelling names nothing (404). */
export const UploadParams = z.strictObject({ id: z.uuid().refine((id) => id === id.toLowerCase()) });
