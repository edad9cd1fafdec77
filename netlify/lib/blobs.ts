/**
 * Photo storage for find-pros requests. Production uses Netlify Blobs; anything outside
 * Netlify's runtime or emulation (vitest) injects the in-memory store instead, because
 * @netlify/blobs throws when it has no environment context.
 */
import { getStore as getBlobStore } from "@netlify/blobs";
import { MAX_UPLOAD_BYTES } from "../../src/lib/photos.ts";
import { MESSAGES } from "../../src/lib/schemas/forms.ts";

export const PHOTO_STORE_NAME = "find-pros-photos";
export const MAX_PHOTO_BYTES = MAX_UPLOAD_BYTES;
/** Not an image. */
export const PHOTO_ERROR = MESSAGES.photo;
/** Larger than MAX_PHOTO_BYTES. */
export const PHOTO_TOO_LARGE = MESSAGES.photoTooLarge;

export interface PhotoMeta {
  /** Sniffed type, not the one the browser declared. */
  contentType: ImageType;
  size: number;
  uploadedAt: string;
}

export interface PhotoStore {
  put(key: string, bytes: Uint8Array, meta: PhotoMeta): Promise<void>;
  /** The photo and its type, or null when there is none (the answer page shows it to the pro). */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

/** Netlify Blobs store (`name`: find-pros photos by default), created on first use so merely importing this never throws. */
export function netlifyPhotoStore(name: string = PHOTO_STORE_NAME): PhotoStore {
  let store: ReturnType<typeof getBlobStore> | undefined;
  const blobs = () => (store ??= getBlobStore({ name }));
  return {
    async put(key, bytes, meta) {
      // Copy into a fresh ArrayBuffer: the upload must not see the rest of a shared buffer.
      const body = bytes.slice().buffer;
      await blobs().set(key, body, { metadata: { ...meta } });
    },
    async get(key) {
      const found = await blobs().getWithMetadata(key, { type: "arrayBuffer" });
      if (!found) return null;
      const type = (found.metadata as Partial<PhotoMeta>).contentType;
      return {
        bytes: new Uint8Array(found.data),
        contentType: typeof type === "string" ? type : "application/octet-stream",
      };
    },
    async delete(key) {
      await blobs().delete(key);
    },
  };
}

/** In-memory stand-in for tests and local scripts. */
export function memoryPhotoStore(): PhotoStore & {
  readonly entries: Map<string, { bytes: Uint8Array; meta: PhotoMeta }>;
} {
  const entries = new Map<string, { bytes: Uint8Array; meta: PhotoMeta }>();
  return {
    entries,
    async put(key, bytes, meta) {
      entries.set(key, { bytes: bytes.slice(), meta });
    },
    async get(key) {
      const entry = entries.get(key);
      return entry ? { bytes: entry.bytes.slice(), contentType: entry.meta.contentType } : null;
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/heif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
const HEIF_BRANDS = new Set(["mif1", "msf1", "heif"]);

/** The image type the bytes actually are (by signature), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b))
    return "image/png";
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return "image/gif";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "image/webp";
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (HEIC_BRANDS.has(brand)) return "image/heic";
    if (HEIF_BRANDS.has(brand)) return "image/heif";
  }
  return null;
}

/** What the browser may declare: an allowed image type, or nothing useful (some send "" for HEIC). */
const ACCEPTABLE_DECLARED = new Set<string>([
  ...IMAGE_TYPES,
  "image/jpg",
  "image/pjpeg",
  "",
  "application/octet-stream",
]);

export type PhotoCheck =
  { ok: true; bytes: Uint8Array; contentType: ImageType } | { ok: false; message: string } | { ok: true; bytes: null };

/**
 * Validates an optional upload: no file (or the empty part a browser sends when none was
 * chosen) is fine; otherwise it must be at most MAX_PHOTO_BYTES and really be one of the image types.
 */
export async function checkPhoto(entry: FormDataEntryValue | null): Promise<PhotoCheck> {
  if (entry === null) return { ok: true, bytes: null };
  if (typeof entry === "string") return entry === "" ? { ok: true, bytes: null } : { ok: false, message: PHOTO_ERROR };
  if (entry.size === 0 && entry.name === "") return { ok: true, bytes: null };
  if (entry.size > MAX_PHOTO_BYTES) return { ok: false, message: PHOTO_TOO_LARGE };
  if (entry.size === 0) return { ok: false, message: PHOTO_ERROR };
  if (!ACCEPTABLE_DECLARED.has(entry.type.toLowerCase())) return { ok: false, message: PHOTO_ERROR };
  const bytes = new Uint8Array(await entry.arrayBuffer());
  const contentType = sniffImageType(bytes);
  return contentType ? { ok: true, bytes, contentType } : { ok: false, message: PHOTO_ERROR };
}
