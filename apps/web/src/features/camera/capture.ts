import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';

/** Scales a size down (never up) so its long side is at most `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number = UPLOAD_LIMITS.clientMaxSide) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Draws a video frame or a decoded image into a JPEG no larger than the client limit (long side ≤ 1600 px,
 * docs/product.md#photo-rules), which keeps uploads small on slow networks. The front camera is mirrored so the photo
 * looks like the preview the visitor just posed in.
 */
export async function toJpeg(
  source: CanvasImageSource,
  sourceWidth: number,
  sourceHeight: number,
  mirror: boolean,
): Promise<Blob> {
  const { width, height } = fitWithin(sourceWidth, sourceHeight);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Canvas 2D is not available');
  if (mirror) {
    context.translate(width, 0);
    context.scale(-1, 1);
  }
  context.drawImage(source, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))),
      'image/jpeg',
      0.9,
    ),
  );
}

/** A picked file, downscaled the same way; formats the browser cannot decode (HEIC) go up as they are. */
export async function fileToUpload(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    try {
      return await toJpeg(bitmap, bitmap.width, bitmap.height, false);
    } finally {
      bitmap.close();
    }
  } catch {
    return file;
  }
}
