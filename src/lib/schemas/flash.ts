/**
 * A form flash: what a no-JS form post hands to the page it redirects to (post/redirect/get).
 * The function stores it under a random id and answers 303 to `path?form=<id>`; the page at
 * `path` reads it and renders the form's values, its field messages and the problem line,
 * or the notice after a success. Kept for FLASH_TTL_SECONDS, read any number of times (a
 * reload shows the same page), never for another path.
 */
import { z } from "../zod.ts";

/** How long a flash can be read after the post. */
export const FLASH_TTL_SECONDS = 15 * 60;

/** The query parameter that carries a flash's id. */
export const FLASH_PARAM = "form";

/**
 * The query parameter that says a flash could not be stored (`unavailable`: the store is
 * down); the page answers 503 with its plain form.
 */
export const PROBLEM_PARAM = "problem";

/** 128 random bits, base64url (22 characters). */
export const FLASH_ID = /^[A-Za-z0-9_-]{22}$/;

export const Flash = z.object({
  /** The page it is for: read only there (a flash id pasted onto another page shows nothing). */
  path: z
    .string()
    .max(500)
    .regex(/^\/(?!\/)[^?#]*$/, "A site path, without query or fragment."),
  /** The status the page answers with: 200 after a success, 4xx/503 after a refusal. */
  status: z
    .number()
    .int()
    .refine((s) => s === 200 || (s >= 400 && s <= 599), "A page answers 200 or an error status."),
  /** The form's values as posted, to fill the form again (one string, or a list for a checkbox group). */
  values: z.record(z.string(), z.union([z.string(), z.array(z.string()).readonly()])).default({}),
  /** Field name -> message, from the form's own schema. */
  errors: z.record(z.string(), z.string()).default({}),
  /** One line about the whole post (a limit, an outage, a link that no longer works). */
  problem: z.string().max(1000).optional(),
  /** One line after a success ("Thanks: you accepted this job."). */
  notice: z.string().max(1000).optional(),
  /** Which form on the page it is for, when a page has several (the answer page's accept and decline). */
  form: z.string().max(50).optional(),
});
export type Flash = z.output<typeof Flash>;
export type FlashInput = z.input<typeof Flash>;
