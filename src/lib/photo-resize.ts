/**
 * Makes a photo small enough to send before a page uploads it (the find-pros form, the owner's
 * photos): a 12 MP camera photo is 5-8 MB, more than a function may receive (photos.ts). The
 * photo is decoded upright (createImageBitmap with the EXIF orientation applied), drawn at most
 * RESIZE.maxSide px on its longest side and encoded as JPEG, the quality lowered and then the
 * size until it fits MAX_UPLOAD_BYTES. A photo that already fits (small enough in bytes and in
 * pixels, and of a type the form takes) goes as it is.
 *
 * The decisions (fitWithin, attempts, preparePhoto) take a codec, so they run in tests without
 * a canvas; browserCodec() is the real one.
 */
import { MAX_UPLOAD_BYTES, RESIZE } from "./photos.ts";

/** A decoded photo, upright. */
export interface DecodedPhoto {
  width: number;
  height: number;
  source: CanvasImageSource;
  close(): void;
}

export interface PhotoCodec {
  /** The photo decoded upright, or null when this browser cannot read it (HEIC outside Safari, not an image). */
  decode(file: Blob): Promise<DecodedPhoto | null>;
  /** The photo drawn at width x height as RESIZE.type at `quality`, or null when the browser cannot encode. */
  encode(photo: DecodedPhoto, width: number, height: number, quality: number): Promise<Blob | null>;
}

export type PreparedPhoto =
  /** Sent as chosen: it fits, or it could not be read here and still fits. */
  | { kind: "original"; file: File }
  /** Made smaller: a JPEG that fits. */
  | { kind: "resized"; file: File; width: number; height: number; quality: number }
  /** Over the limit and could not be made to fit: the field's message says so, nothing is sent. */
  | { kind: "too-large" };

export interface PrepareOptions {
  codec?: PhotoCodec;
  /** Bytes the result may have (MAX_UPLOAD_BYTES). */
  limit?: number;
  /** The longest side first tried (RESIZE.maxSide). */
  maxSide?: number;
  /** Types the form takes as they are; a photo of another type is re-encoded even when it fits. */
  accept?: readonly string[];
}

/** Width and height with the longest side at most `maxSide`, in proportion, never enlarged, never 0. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The encodes to try, in order, until one fits: each quality from RESIZE.quality down to
 * RESIZE.minQuality at the largest side, then the same at a side RESIZE.sideStep smaller, down
 * to RESIZE.minSide.
 */
export function attempts(maxSide: number = RESIZE.maxSide): { side: number; quality: number }[] {
  const out: { side: number; quality: number }[] = [];
  for (let side = maxSide; side >= RESIZE.minSide; side = Math.round(side * RESIZE.sideStep)) {
    // Rounded to hundredths: 0.85 - 0.15 - 0.15 must reach 0.55, not 0.5499.
    for (let q = RESIZE.quality; q >= RESIZE.minQuality - 1e-9; q = Math.round((q - RESIZE.qualityStep) * 100) / 100)
      out.push({ side, quality: q });
  }
  return out;
}

/** The chosen file's name with the new type's extension ("IMG_0412.HEIC" -> "IMG_0412.jpg"). */
export function resizedName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, "") || "photo";
  return `${base}.jpg`;
}

/** The photo to send for `file`: as it is, made smaller, or refused as too large. */
export async function preparePhoto(file: File, options: PrepareOptions = {}): Promise<PreparedPhoto> {
  const codec = options.codec ?? browserCodec();
  const limit = options.limit ?? MAX_UPLOAD_BYTES;
  const maxSide = options.maxSide ?? RESIZE.maxSide;
  const asIs = (): PreparedPhoto => (file.size <= limit ? { kind: "original", file } : { kind: "too-large" });

  const photo = await codec.decode(file).catch(() => null);
  // Unreadable here: the server decides on its type; the size is known already.
  if (!photo) return asIs();
  try {
    const takenAsIs = !options.accept || options.accept.includes(file.type.toLowerCase());
    if (takenAsIs && file.size <= limit && Math.max(photo.width, photo.height) <= maxSide) return asIs();
    let tried = "";
    for (const { side, quality } of attempts(maxSide)) {
      const size = fitWithin(photo.width, photo.height, side);
      // A small photo reaches its own size at once; a smaller side would not change it.
      const key = `${size.width}x${size.height}@${quality}`;
      if (key === tried) continue;
      tried = key;
      const blob = await codec.encode(photo, size.width, size.height, quality).catch(() => null);
      if (!blob) break;
      if (blob.size <= limit) {
        const resized = new File([blob], resizedName(file.name), {
          type: RESIZE.type,
          lastModified: file.lastModified,
        });
        return { kind: "resized", file: resized, ...size, quality };
      }
    }
    // Nothing fitted (or this browser cannot encode): as chosen when it fits, else refused.
    return asIs();
  } finally {
    photo.close();
  }
}

/** The browser's own decoder and a canvas: upright from EXIF, white under transparency (JPEG has none). */
export function browserCodec(): PhotoCodec {
  return {
    async decode(file) {
      if (typeof createImageBitmap !== "function") return null;
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      return { width: bitmap.width, height: bitmap.height, source: bitmap, close: () => bitmap.close() };
    },
    encode(photo, width, height, quality) {
      return new Promise((resolve) => {
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext("2d");
        if (!context) return resolve(null);
        context.fillStyle = "#fff";
        context.fillRect(0, 0, width, height);
        context.imageSmoothingQuality = "high";
        context.drawImage(photo.source, 0, 0, width, height);
        canvas.toBlob((blob) => resolve(blob), RESIZE.type, quality);
      });
    },
  };
}
