/**
 * /directory/:slug for businesses the last build did not prerender (added since). The
 * prerendered pages win (preferStatic); anything else lands here. A known slug gets the
 * profile shell, which loads the business by slug in the browser; an unknown one gets
 * the same shell marked missing, with HTTP 404, so crawlers drop it and visitors see
 * "Business Not Found" straight away.
 */
import type { Config, Context } from "@netlify/functions";
import { directoryPageHandler } from "../lib/directory-page.ts";

export default (req: Request, context: Context) => directoryPageHandler()(req, context.params?.slug);

export const config: Config = { path: "/directory/:slug", preferStatic: true };
