/**
 * GET /photos/:business/:name: an owner's photo as the public page shows it (resized, without
 * metadata), cached for a year: the name is the content's hash. The handler lives in
 * ../lib/owners/photo-serve.ts.
 */
import type { Config } from "@netlify/functions";
import { businessPhotoHandler } from "../lib/owners/photo-serve.ts";

export default businessPhotoHandler();

export const config: Config = { path: "/photos/:business/:name" };
