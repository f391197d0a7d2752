import sharp from 'sharp';
import type { UploadKind } from './queries.ts';

/** The types a picture is stored as: the type it came in (docs/rules/security.md#8-uploads). */
export type PictureType = 'image/jpeg' | 'image/png' | 'image/webp';

/**
 * The longest side a stored picture may have, in pixels: an NID photo stays readable at 2,000 px; a profile picture
 * is shown at most a few hundred pixels wide (docs/rules/limits.md#4-uploads).
 */
export const MAX_SIDE: Record<UploadKind, number> = { nid: 2000, profile: 640 };

/**
 * The most pixels a picture may have before it is decoded: a 2 MiB PNG of one colour can claim hundreds of megapixels
 * (a decompression bomb); a 50-megapixel phone camera photo is still accepted.
 */
export const MAX_INPUT_PIXELS = 60_000_000;

// Pictures are decoded once each: libvips' operation cache would only hold memory.
sharp.cache(false);

/**
 * Decodes a picture and writes it anew (docs/rules/security.md#8-uploads): turned upright by its EXIF orientation,
 * shrunk to MAX_SIDE[kind] on its longest side (never enlarged), and encoded again in its own type with no metadata
 * at all — no EXIF (GPS position, camera, time), no XMP, no ICC profile (colours converted to sRGB), no comments.
 * The first frame only of an animated picture. null when the bytes are not a picture that can be decoded.
 */
export async function reencodePicture(input: Buffer, type: PictureType, kind: UploadKind): Promise<Buffer | null> {
  const side = MAX_SIDE[kind];
  try {
    const img = sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true }).resize({
      width: side,
      height: side,
      fit: 'inside',
      withoutEnlargement: true,
    });
    if (type === 'image/jpeg') return await img.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (type === 'image/png') return await img.png({ compressionLevel: 9 }).toBuffer();
    return await img.webp({ quality: 85 }).toBuffer();
  } catch {
    return null;
  }
}
