/**
 * The photo a page sends (src/lib/photo-resize.ts) with a fake codec: the decisions (send as
 * it is, make smaller, lower the quality, then the size, refuse) without a canvas. The limits
 * themselves (src/lib/photos.ts) against what Netlify passes a function.
 */
import { describe, expect, it } from "vitest";
import {
  attempts,
  fitWithin,
  preparePhoto,
  resizedName,
  type DecodedPhoto,
  type PhotoCodec,
} from "../../src/lib/photo-resize.ts";
import {
  MAX_BODY_BYTES,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_LABEL,
  NETLIFY_BUFFERED_REQUEST_BYTES,
  PHOTO_TEXT,
  RESIZE,
  photoTooLargePage,
} from "../../src/lib/photos.ts";

const MB = 1024 * 1024;

/** A file of `bytes` bytes (its content is never read by the fake codec). */
const photo = (bytes: number, type = "image/jpeg", name = "IMG_0412.JPG") =>
  new File([new Uint8Array(bytes)], name, { type, lastModified: 1_700_000_000_000 });

/**
 * A codec for a photo of `width` x `height` (null: it cannot be decoded): an encode of w x h at
 * quality q "weighs" `bytesPerPixel(q)` per pixel; each call is recorded, and every decoded photo
 * must be closed.
 */
function fakeCodec(
  size: { width: number; height: number } | null,
  bytesPerPixel = (q: number) => q,
  failEncode = false,
) {
  const calls: { width: number; height: number; quality: number }[] = [];
  let open = 0;
  const codec: PhotoCodec = {
    async decode() {
      if (!size) return null;
      open++;
      return { ...size, source: {} as CanvasImageSource, close: () => void open-- } satisfies DecodedPhoto;
    },
    async encode(_photo, width, height, quality) {
      calls.push({ width, height, quality });
      if (failEncode) return null;
      const bytes = Math.round(width * height * bytesPerPixel(quality));
      // Past 8 MB only the size is looked at: no need to hold hundreds of MB.
      if (bytes > 8 * MB) return Object.defineProperty(new Blob([], { type: RESIZE.type }), "size", { value: bytes });
      return new Blob([new Uint8Array(bytes)], { type: RESIZE.type });
    },
  };
  return { codec, calls, open: () => open };
}

describe("the limits (src/lib/photos.ts)", () => {
  it("the largest body, base64-encoded as Netlify passes it, fits its 6 MB with room for the headers", () => {
    const base64 = Math.ceil(MAX_BODY_BYTES / 3) * 4;
    expect(base64 + 32 * 1024).toBeLessThan(NETLIFY_BUFFERED_REQUEST_BYTES);
    // A photo at the limit leaves room in the body for the form's other fields (16 KB at most).
    expect(MAX_BODY_BYTES - MAX_UPLOAD_BYTES).toBeGreaterThanOrEqual(64 * 1024);
  });

  it("every text states the limit the server enforces, and none promises 5 MB", () => {
    expect(MAX_UPLOAD_LABEL).toBe(`${MAX_UPLOAD_BYTES / MB} MB`);
    for (const text of [PHOTO_TEXT.label, PHOTO_TEXT.tooLarge, PHOTO_TEXT.tooLargeToAdd, PHOTO_TEXT.tooLargeToSend])
      expect(text).toContain(MAX_UPLOAD_LABEL);
    expect(Object.values(PHOTO_TEXT).join(" ")).not.toContain("5 MB");
  });

  it("the too-large page says what happened, the limit and how to retry, with no script", () => {
    const page = photoTooLargePage();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain(`<h1>${PHOTO_TEXT.pageTitle}</h1>`);
    expect(page).toContain(MAX_UPLOAD_LABEL);
    expect(page).toContain("Back button");
    expect(page).not.toMatch(/<script|<style|style=/);
  });
});

describe("fitWithin and attempts", () => {
  it("keeps the proportions, shrinks only the too large, never to 0", () => {
    expect(fitWithin(4032, 3024, 2048)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(3024, 4032, 2048)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin(800, 600, 2048)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(10000, 1, 2048)).toEqual({ width: 2048, height: 1 });
  });

  it("lowers the quality first, then the size, down to the smallest side", () => {
    const tries = attempts(2048);
    expect(tries.slice(0, 4)).toEqual([
      { side: 2048, quality: 0.85 },
      { side: 2048, quality: 0.7 },
      { side: 2048, quality: 0.55 },
      { side: 1536, quality: 0.85 },
    ]);
    expect(Math.min(...tries.map((t) => t.side))).toBeGreaterThanOrEqual(RESIZE.minSide);
    expect(Math.min(...tries.map((t) => t.quality))).toBe(RESIZE.minQuality);
  });

  it("names the result as a JPEG", () => {
    expect(resizedName("IMG_0412.HEIC")).toBe("IMG_0412.jpg");
    expect(resizedName("tree.photo.png")).toBe("tree.photo.jpg");
    expect(resizedName("noextension")).toBe("noextension.jpg");
    expect(resizedName(".png")).toBe("photo.jpg");
  });
});

describe("preparePhoto", () => {
  it("a 12 MP camera photo of 6.5 MB goes as a 2048 px JPEG at the first quality, under the limit", async () => {
    // A camera JPEG: about 0.3 bytes a pixel at 0.85.
    const fake = fakeCodec({ width: 4032, height: 3024 }, (q) => q * 0.35);
    const prepared = await preparePhoto(photo(6.5 * MB), { codec: fake.codec });
    expect(prepared.kind).toBe("resized");
    if (prepared.kind !== "resized") return;
    expect(prepared).toMatchObject({ width: 2048, height: 1536, quality: RESIZE.quality });
    expect(prepared.file.size).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    expect(prepared.file.type).toBe("image/jpeg");
    expect(prepared.file.name).toBe("IMG_0412.jpg");
    expect(fake.calls).toHaveLength(1);
    expect(fake.open()).toBe(0);
  });

  it("a photo upright only once decoded keeps the decoded (EXIF-applied) orientation", async () => {
    // The decoder applied the EXIF rotation: a portrait photo stored landscape comes out portrait.
    const fake = fakeCodec({ width: 3024, height: 4032 }, () => 0.3);
    const prepared = await preparePhoto(photo(5 * MB), { codec: fake.codec });
    expect(prepared).toMatchObject({ kind: "resized", width: 1536, height: 2048 });
  });

  it("lowers the quality, then the size, until it fits", async () => {
    // Heavy enough that 2048 px never fits at any quality; 1536 px at 0.7 does.
    const limit = 1536 * 1152 * 0.7;
    const fake = fakeCodec({ width: 4032, height: 3024 }, (q) => q);
    const prepared = await preparePhoto(photo(8 * MB), { codec: fake.codec, limit });
    expect(fake.calls.map((c) => [c.width, c.quality])).toEqual([
      [2048, 0.85],
      [2048, 0.7],
      [2048, 0.55],
      [1536, 0.85],
      [1536, 0.7],
    ]);
    expect(prepared).toMatchObject({ kind: "resized", width: 1536, height: 1152, quality: 0.7 });
    expect(fake.open()).toBe(0);
  });

  it("a photo that fits in bytes and pixels goes as it is, untouched", async () => {
    const fake = fakeCodec({ width: 1600, height: 1200 });
    const file = photo(900 * 1024, "image/png", "yard.png");
    const prepared = await preparePhoto(file, { codec: fake.codec });
    expect(prepared).toEqual({ kind: "original", file });
    expect(fake.calls).toEqual([]);
  });

  it("a small photo larger than 2048 px is still made smaller (less to upload)", async () => {
    const fake = fakeCodec({ width: 4000, height: 3000 }, () => 0.1);
    const prepared = await preparePhoto(photo(2 * MB), { codec: fake.codec });
    expect(prepared).toMatchObject({ kind: "resized", width: 2048, height: 1536 });
  });

  it("a type the form does not take is re-encoded even when it fits (a HEIC on the owner's page)", async () => {
    const fake = fakeCodec({ width: 1200, height: 900 }, () => 0.2);
    const heic = photo(MB, "image/heic", "IMG_1.HEIC");
    const prepared = await preparePhoto(heic, { codec: fake.codec, accept: ["image/jpeg", "image/png", "image/webp"] });
    expect(prepared).toMatchObject({ kind: "resized", width: 1200, height: 900 });
    if (prepared.kind === "resized") expect(prepared.file.name).toBe("IMG_1.jpg");
  });

  it("a photo this browser cannot read: as it is under the limit, refused over it", async () => {
    const fake = fakeCodec(null);
    const small = photo(3 * MB, "image/heic");
    expect(await preparePhoto(small, { codec: fake.codec })).toEqual({ kind: "original", file: small });
    expect(await preparePhoto(photo(7 * MB, "image/heic"), { codec: fake.codec })).toEqual({ kind: "too-large" });
    const throwing: PhotoCodec = { ...fake.codec, decode: () => Promise.reject(new Error("decode")) };
    expect(await preparePhoto(photo(7 * MB), { codec: throwing })).toEqual({ kind: "too-large" });
  });

  it("nothing fits even at the smallest size and quality: refused, every try closed", async () => {
    const fake = fakeCodec({ width: 4032, height: 3024 }, () => 100);
    expect(await preparePhoto(photo(7 * MB), { codec: fake.codec })).toEqual({ kind: "too-large" });
    expect(fake.calls.at(-1)).toMatchObject({ quality: RESIZE.minQuality });
    expect(fake.calls.length).toBe(attempts().length);
    expect(fake.open()).toBe(0);
  });

  it("a browser that cannot encode: the photo as it is when it fits, else refused", async () => {
    const fake = fakeCodec({ width: 4032, height: 3024 }, () => 0.3, true);
    const fits = photo(3 * MB);
    expect(await preparePhoto(fits, { codec: fake.codec })).toEqual({ kind: "original", file: fits });
    expect(await preparePhoto(photo(6 * MB), { codec: fake.codec })).toEqual({ kind: "too-large" });
    expect(fake.open()).toBe(0);
  });
});
