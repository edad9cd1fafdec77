/**
 * GET /photos/:business/:name: an owner's photo as stored by /owner/photos (photos.ts), from
 * Netlify Blobs. Kept apart from photos.ts so this function never loads sharp.
 */
import { netlifyPhotoStore, type PhotoStore } from "../blobs.ts";
import { HttpError, endpoint, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";

export const PHOTO_ROUTE = "/photos/:business/:name";
/** The Netlify Blobs store of owners' photos. */
export const BUSINESS_PHOTO_STORE = "business-photos";

/** A stored photo's name: the first 32 hex digits of its SHA-256, as WebP. */
const NAME = /^[a-f0-9]{32}\.webp$/;
const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The public path of a stored photo. */
export const photoPath = (businessId: string, name: string) => `/photos/${businessId}/${name}`;
/** The blob key of a stored photo. */
export const blobKey = (businessId: string, name: string) => `${businessId}/${name}`;

let shared: PhotoStore | undefined;
export const defaultBusinessPhotos = () => (shared ??= netlifyPhotoStore(BUSINESS_PHOTO_STORE));

/** GET /photos/:business/:name: a stored photo, cached for a year (its name is its content's hash). */
export function businessPhotoHandler(
  deps: Pick<EndpointDeps, "env" | "now"> & { photos?: () => PhotoStore } = {},
): Endpoint {
  const photosOf = deps.photos ?? defaultBusinessPhotos;
  return endpoint(
    {
      log: "[owner] photo",
      methods: ["GET", "HEAD"],
      route: {
        path: PHOTO_ROUTE,
        valid: (v) => BUSINESS_ID.test(v) || NAME.test(v),
        notFound: "Photo not found",
      },
      optionalStore: true,
    },
    // Photos come from the blob store only: no Redis connection per image.
    { ...deps, store: () => null as never },
    async ({ params, req }) => {
      if (!BUSINESS_ID.test(params.business) || !NAME.test(params.name)) throw new HttpError(404, "Photo not found");
      const found = await storeCall(() => photosOf().get(blobKey(params.business, params.name)), {
        step: "photo store",
      });
      if (!found) throw new HttpError(404, "Photo not found");
      return new Response(req.method === "HEAD" ? null : found.bytes.slice().buffer, {
        status: 200,
        headers: {
          "content-type": found.contentType,
          "content-length": String(found.bytes.byteLength),
          "cache-control": "public, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'",
        },
      });
    },
  );
}
