/**
 * The owner's photos: the posts of /owner/photos (a multipart form that works without
 * JavaScript: upload, or a Remove button per photo; the page is src/pages/owner/photos.astro);
 * the public copies are served by photo-serve.ts.
 *
 * An upload is checked by its bytes (JPEG, PNG or WebP, at most MAX_UPLOAD_BYTES: 4 MB, what a
 * function can receive, src/lib/photos.ts; the page shrinks a larger one first when it has
 * JavaScript, src/scripts/photo-upload.ts), then re-encoded with
 * sharp: turned upright from its EXIF orientation, shrunk to at most 1600 px on its longest
 * side and written as WebP without any metadata (no GPS position, camera or owner name
 * leaves the phone). The result is stored in Netlify Blobs under a name made from its own
 * hash, so its public URL never changes content and is cached for a year. The business's
 * `images` list changes through applyListingChange (history, rollback, cache purge). A removed
 * photo's file stays in the store, so rolling the removal back shows it again.
 */
import { createHash } from "node:crypto";
import type { PhotosView } from "../../../src/lib/owner-views.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { IMAGE_TYPES, sniffImageType, type PhotoStore } from "../blobs.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, PHOTO_TEXT } from "../../../src/lib/photos.ts";
import { MAX_BODY_LIMIT, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { applyListingChange } from "./changes.ts";
import { INVALID_STATUS, backToPage, ownerEndpoint, seeOwnerPage } from "./page.ts";
import { blobKey, defaultBusinessPhotos, photoPath } from "./photo-serve.ts";

export const PHOTOS_ROUTE = "/owner/photos";
/** Photos a listing may show. */
export const MAX_BUSINESS_PHOTOS = 12;
/** One upload, as sent (the whole post must fit MAX_BODY_LIMIT, the functions' body cap). */
export { MAX_UPLOAD_BYTES };
/** The longest side of a stored photo. */
export const PHOTO_MAX_SIDE = 1600;
/** What a photo may be, sniffed from its bytes. */
export const ACCEPTED_PHOTO_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
] as const satisfies readonly (typeof IMAGE_TYPES)[number][];

export const PHOTO_MESSAGES = {
  type: "That file is not a JPEG, PNG or WebP photo. Nothing was added.",
  size: PHOTO_TEXT.tooLargeToAdd,
  /** The whole post was over the body cap: nothing of it was read. */
  tooLargeToSend: PHOTO_TEXT.tooLargeToSend,
  none: "Choose a photo to upload.",
  full: `A listing shows at most ${MAX_BUSINESS_PHOTOS} photos: remove one first.`,
  unreadable: "That photo could not be read. Try saving it again as a JPEG. Nothing was added.",
  added: "Photo added. Your public page shows it now.",
  removed: "Photo removed. Your public page no longer shows it.",
  notFound: "That photo is not on your listing.",
} as const;

/** Upright, at most PHOTO_MAX_SIDE px, WebP, no metadata (sharp keeps none unless asked). */
export async function processPhoto(bytes: Uint8Array): Promise<Uint8Array> {
  const { default: sharp } = await import("sharp");
  const out = await sharp(bytes, { failOn: "error", limitInputPixels: 50_000_000 })
    .rotate()
    .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer();
  return new Uint8Array(out);
}

export interface OwnerPhotosDeps extends EndpointDeps {
  purge?: Purge;
  photos?: () => PhotoStore;
}

/** The page's photos and, until the listing is full, its upload form. */
export function photosView(business: Pick<Business, "images">): PhotosView {
  return {
    action: PHOTOS_ROUTE,
    images: business.images,
    max: MAX_BUSINESS_PHOTOS,
    maxSize: MAX_UPLOAD_LABEL,
    accept: ACCEPTED_PHOTO_TYPES.join(","),
    ...(business.images.length >= MAX_BUSINESS_PHOTOS ? { full: PHOTO_MESSAGES.full } : {}),
  };
}

export function ownerPhotosHandler(deps: OwnerPhotosDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const photosOf = deps.photos ?? defaultBusinessPhotos;
  return ownerEndpoint(
    {
      log: "[owner] photos",
      body: { multipart: MAX_BODY_LIMIT },
      tooLarge: { multipart: PHOTO_MESSAGES.tooLargeToSend },
      rateLimit: { name: "owner-photos", perMinute: () => 20 },
    },
    deps,
    async (call, { business, session }) => {
      const refuse = (status: number, problem: string) =>
        backToPage(call.store, { path: PHOTOS_ROUTE, status, problem });
      const form = call.body!.value;
      const actor = { kind: "owner" as const, email: session.email };

      const remove = form.get("remove");
      if (typeof remove === "string" && remove !== "") {
        if (!business.images.includes(remove)) return refuse(404, PHOTO_MESSAGES.notFound);
        await storeCall(
          () =>
            applyListingChange(
              call.store,
              {
                businessId: business.id,
                current: business,
                actor,
                summary: "Photo removed",
                patch: { images: business.images.filter((s) => s !== remove) },
              },
              call.now(),
              purge,
            ),
          { step: "save" },
        );
        return seeOwnerPage(call.store, PHOTOS_ROUTE, PHOTO_MESSAGES.removed);
      }

      const file = form.get("photo");
      if (!(file instanceof File) || file.size === 0) return refuse(INVALID_STATUS, PHOTO_MESSAGES.none);
      if (file.size > MAX_UPLOAD_BYTES) return refuse(413, PHOTO_MESSAGES.size);
      if (business.images.length >= MAX_BUSINESS_PHOTOS) return refuse(409, PHOTO_MESSAGES.full);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const type = sniffImageType(bytes);
      if (!type || !(ACCEPTED_PHOTO_TYPES as readonly string[]).includes(type))
        return refuse(INVALID_STATUS, PHOTO_MESSAGES.type);
      let processed: Uint8Array;
      try {
        processed = await processPhoto(bytes);
      } catch {
        // The right signature but bytes sharp cannot decode: the file's fault, not ours.
        return refuse(INVALID_STATUS, PHOTO_MESSAGES.unreadable);
      }
      const name = `${createHash("sha256").update(processed).digest("hex").slice(0, 32)}.webp`;
      const src = photoPath(business.id, name);
      if (business.images.includes(src)) return seeOwnerPage(call.store, PHOTOS_ROUTE, PHOTO_MESSAGES.added);
      await storeCall(
        () =>
          photosOf().put(blobKey(business.id, name), processed, {
            contentType: "image/webp",
            size: processed.byteLength,
            uploadedAt: new Date(call.now()).toISOString(),
          }),
        { step: "photo store" },
      );
      await storeCall(
        () =>
          applyListingChange(
            call.store,
            { businessId: business.id, actor, summary: "Photo added", patch: { images: [...business.images, src] } },
            call.now(),
            purge,
          ),
        { step: "save" },
      );
      console.info(`[owner] photos ${business.id}: added ${name} (${processed.byteLength} bytes)`);
      return seeOwnerPage(call.store, PHOTOS_ROUTE, PHOTO_MESSAGES.added);
    },
  );
}
