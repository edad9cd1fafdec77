/**
 * POST /owner/photos: the owner uploads (multipart, works without JavaScript) and removes the
 * listing's photos; the page is src/pages/owner/photos.astro. The handler lives in
 * ../lib/owners/photos.ts.
 */
import type { Config } from "@netlify/functions";
import { ownerPhotosHandler } from "../lib/owners/photos.ts";

export default ownerPhotosHandler();

export const config: Config = { path: "/owner/photos", method: "POST" };
