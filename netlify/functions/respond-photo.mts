/**
 * GET /respond/:token/photo: the customer's photo, for the business the answer link is for.
 * The handler lives in ../lib/delivery/handlers.ts.
 */
import type { Config } from "@netlify/functions";
import { respondPhotoHandler } from "../lib/delivery/handlers.ts";

export default respondPhotoHandler();

export const config: Config = { path: "/respond/:token/photo" };
