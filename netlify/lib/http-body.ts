/**
 * Request bodies: which kind a request declares, the size caps, and reading one whole
 * (refusing past its cap) into a JSON object, form fields or multipart form data.
 */
import { MAX_BODY_BYTES } from "../../src/lib/photos.ts";
import { HttpError } from "./http-responses.ts";

/** "multipart/form-data; boundary=..." -> "multipart/form-data" ("" when absent). */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

export type BodyKind = "json" | "urlencoded" | "multipart";

/** The media type a kind is sent as, for the 415 message. */
export const BODY_MEDIA_TYPES: Readonly<Record<BodyKind, string>> = {
  json: "application/json",
  urlencoded: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

export function bodyKind(req: Request): BodyKind | null {
  const type = mediaType(req);
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data") return "multipart";
  return null;
}

/** True when the client asked for JSON explicitly (e.g. a script posting FormData). */
export function acceptsJson(req: Request): boolean {
  return /\bapplication\/(?:[a-z0-9.+-]+\+)?json\b/i.test(req.headers.get("accept") ?? "");
}

/** A browser's form post (no JavaScript) is answered with a page; a script asking for JSON gets JSON. */
export function wantsPage(req: Request): boolean {
  const kind = bodyKind(req);
  return (kind === "urlencoded" || kind === "multipart") && !acceptsJson(req);
}

export const KB = 1024;
/** Every text-only form fits in a few KB; the cap only stops abuse. */
export const TEXT_BODY_LIMIT = 16 * KB;
export const MB = 1024 * KB;
/**
 * The largest body any endpoint accepts (the photo forms: a photo plus fields and multipart
 * overhead; src/lib/photos.ts says why it is what Netlify can pass a function). `npm start`'s
 * server refuses a longer body before reading it.
 */
export const MAX_BODY_LIMIT = MAX_BODY_BYTES;

/** Human form of a byte limit for error messages: "16 KB", "6 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}

/**
 * Reads the whole body, refusing (413) as soon as it exceeds `limit`: a declared
 * Content-Length is checked first, and the stream is counted too because chunked
 * uploads declare nothing. `tooLargeMessage` is the 413's text (default: the limit in words).
 */
export async function readBody(
  req: Request,
  limit: number,
  tooLargeMessage = `The request is too large (limit ${formatBytes(limit)}).`,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new HttpError(413, tooLargeMessage);
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Strict UTF-8 decode; bytes that are not text are a client error, not a crash. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "The request body is not valid UTF-8 text.");
  }
}

/**
 * The body as a plain JSON object. JSON.parse stores a `__proto__` key as an own property
 * (it never swaps a prototype) and the schemas copy only their declared keys, so such keys
 * go nowhere. No reviver: it recurses per level and deep nesting would overflow the stack.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/** Parses a buffered multipart body with the platform's own parser. */
export async function parseMultipart(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<FormData> {
  try {
    return await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "The form data could not be read.");
  }
}

/** A read body, by kind. */
export type ParsedBody =
  | { kind: "json"; value: Record<string, unknown> }
  | { kind: "urlencoded"; value: URLSearchParams }
  | { kind: "multipart"; value: FormData };

/** Reads a `kind` body of at most `limit` bytes; 413 (`tooLargeMessage`) above it, 400 when it does not parse. */
export async function parseBody(
  req: Request,
  kind: BodyKind,
  limit: number,
  tooLargeMessage?: string,
): Promise<ParsedBody> {
  const bytes = await readBody(req, limit, tooLargeMessage);
  if (kind === "multipart") return { kind, value: await parseMultipart(bytes, req.headers.get("content-type") ?? "") };
  const text = decodeText(bytes);
  return kind === "json" ? { kind, value: parseJsonObject(text) } : { kind, value: new URLSearchParams(text) };
}
