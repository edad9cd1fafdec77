/**
 * The one place the app imports zod from. Importing it here first guarantees the
 * configuration below runs before any schema is built.
 *
 * jitless: zod 4 compiles object parsers with `new Function` when it may, and finds out by
 * trying it once. Our pages' Content-Security-Policy forbids eval (no 'unsafe-eval'), so in
 * the browser that probe is a CSP violation report on every page whose island validates a
 * form. The interpreted parser is fast enough for forms of a dozen fields, on both sides.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
