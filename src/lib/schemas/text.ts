/**
 * Visitor text as it may be stored and shown: without control characters (NUL, escape
 * sequences, a carriage return that rewrites a CSV line or an e-mail subject) and without
 * the bidirectional embedding, override and isolate marks (U+202A-U+202E, U+2066-U+2069) that
 * make "exe.txt" display as "txt.exe" in the inbox. Every free-text field of every schema
 * builds on `cleanString`, so the browser's check and the function's check strip alike.
 * Shared by the browser and the functions: imports nothing node-only.
 */
import { z } from "../zod.ts";

// C0 controls but tab/LF/CR, DEL, C1 controls, line/paragraph separators, bidi controls.
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const ALWAYS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One line: any line break or tab becomes a space, other controls and bidi marks go. */
export function singleLine(value: string): string {
  return value.replace(/\r\n?|[\n\t\u2028\u2029]/g, " ").replace(ALWAYS, "");
}

/** Several lines: line breaks (CR LF, CR, U+2028/9) become "\n" and tabs stay; the rest as singleLine. */
export function multiLine(value: string): string {
  return value.replace(/\r\n?|[\u2028\u2029]/g, "\n").replace(ALWAYS, "");
}

/**
 * `z.string(params)` that strips control and bidi characters first (a newline stays when
 * `multiline`), keeping every string method (.trim(), .min(), .max()) for the chain.
 */
export function cleanString(params?: Parameters<typeof z.string>[0], options: { multiline?: boolean } = {}) {
  return z.string(params).overwrite(options.multiline ? multiLine : singleLine);
}
