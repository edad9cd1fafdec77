/**
 * GET/POST /owner/add: "Add your business", checked by the operator before it is listed. The handler lives in ../lib/owners/sign-in.ts.
 */
import type { Config } from "@netlify/functions";
import { addBusinessHandler } from "../lib/owners/sign-in.ts";

export default addBusinessHandler();

export const config: Config = { path: "/owner/add" };
