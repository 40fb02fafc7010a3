/**
 * The browser's MediaProbe: decodes an image (createImageBitmap), reads its
 * dimensions, draws a thumbnail (at most 800x600, JPEG, only when the image
 * is larger than that or heavy) and a tiny 32px copy for the blurhash, all
 * on a canvas in the page. blurhash's encoder is imported on first use.
 */
import type { MediaProbe, ProbedMedia } from "../../state/composer/attachments";

const THUMB_W = 800;
const THUMB_H = 600;
const HASH_SIZE = 32;
const HEAVY_BYTES = 1_000_000;

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function scaled(w: number, h: number, maxW: number, maxH: number): { width: number; height: number } {
  const k = Math.min(1, maxW / w, maxH / h);
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
}

async function blurhashOf(bitmap: ImageBitmap): Promise<string | undefined> {
  const { encode } = await import("blurhash");
  const { width, height } = scaled(bitmap.width, bitmap.height, HASH_SIZE, HASH_SIZE);
  const ctx = canvasOf(width, height).getContext("2d");
  if (ctx === null) return undefined;
  ctx.drawImage(bitmap, 0, 0, width, height);
  const data = ctx.getImageData(0, 0, width, height).data;
  return encode(data, width, height, 4, 3);
}

async function thumbnailOf(bitmap: ImageBitmap): Promise<ProbedMedia["thumbnail"]> {
  const { width, height } = scaled(bitmap.width, bitmap.height, THUMB_W, THUMB_H);
  const canvas = canvasOf(width, height);
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, width, height);
  const data = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.8));
  return data === null ? undefined : { data, width, height };
}

/** Probes images in the page. */
export const browserMediaProbe: MediaProbe = {
  async probe(file: Blob): Promise<ProbedMedia> {
    if (!file.type.startsWith("image/")) return {};
    const bitmap = await createImageBitmap(file);
    try {
      const large = bitmap.width > THUMB_W || bitmap.height > THUMB_H || file.size > HEAVY_BYTES;
      const [blurhash, thumbnail] = await Promise.all([
        blurhashOf(bitmap).catch(() => undefined),
        large && file.type !== "image/gif" ? thumbnailOf(bitmap) : Promise.resolve(undefined),
      ]);
      return {
        width: bitmap.width,
        height: bitmap.height,
        ...(blurhash !== undefined ? { blurhash } : {}),
        ...(thumbnail !== undefined ? { thumbnail } : {}),
      };
    } finally {
      bitmap.close();
    }
  },
};
