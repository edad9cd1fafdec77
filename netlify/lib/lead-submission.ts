/**
 * A lead post as the pipeline (leads.ts) reads it: the payload for the schema, the form's
 * own values for re-rendering it, the multipart form for uploads, and the meta fields
 * (honeypot, fill time, source page, idempotency key) that never reach the schema.
 */
import { formValuesToPayload, type FormDef } from "../../src/lib/forms/fields.ts";
import {
  HONEYPOT_FIELD,
  IDEMPOTENCY_FIELD,
  SOURCE_FIELD,
  STARTED_FIELD,
  entriesToFormValues,
  type FormValues,
} from "../../src/lib/forms/markup.ts";
import type { FieldErrors } from "../../src/lib/schemas/forms.ts";
import { HttpError, sameSitePath, type ParsedBody } from "./http.ts";

const MAX_IDEMPOTENCY_KEY = 255;

export interface Meta {
  honeypot: boolean;
  started: number | null;
  source: string | undefined;
  idempotencyKey: string | undefined;
}

export interface Submission {
  payload: Record<string, unknown>;
  /** Flat values for re-rendering a form post; null for JSON. */
  values: FormValues | null;
  /** Multipart body, for uploads. */
  formData: FormData | null;
  meta: Meta;
}

function startedAt(value: unknown): number | null {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{1,16}$/.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function idempotencyKey(header: string | null, field: unknown): string | undefined {
  const raw = header ?? (typeof field === "string" ? field : undefined);
  if (raw === undefined || raw.trim() === "") return undefined;
  const key = raw.trim();
  if (key.length > MAX_IDEMPOTENCY_KEY || !/^[\x21-\x7e]+$/.test(key)) {
    throw new HttpError(400, `The idempotency key must be 1 to ${MAX_IDEMPOTENCY_KEY} visible ASCII characters.`);
  }
  return key;
}

function metaFrom(req: Request, get: (name: string) => unknown, siteOrigin: string): Meta {
  const trap = get(HONEYPOT_FIELD);
  const source = get(SOURCE_FIELD);
  return {
    // Anything in the trap (a string, or a JSON number/object a script filled in) is a bot.
    honeypot:
      trap !== undefined && trap !== null && trap !== false && !(typeof trap === "string" && trap.trim() === ""),
    started: startedAt(get(STARTED_FIELD)),
    source:
      sameSitePath(typeof source === "string" ? source : undefined, req.url, siteOrigin) ??
      sameSitePath(req.headers.get("referer"), req.url, siteOrigin),
    idempotencyKey: idempotencyKey(req.headers.get("idempotency-key"), get(IDEMPOTENCY_FIELD)),
  };
}

/** Reads a parsed lead post; a malformed idempotency key is a 400. */
export function readSubmission(req: Request, body: ParsedBody, form: FormDef, siteOrigin: string): Submission {
  if (body.kind === "json") {
    const payload = body.value;
    const get = (name: string) => (Object.hasOwn(payload, name) ? payload[name] : undefined);
    return { payload, values: null, formData: null, meta: metaFrom(req, get, siteOrigin) };
  }
  const strings = [...body.value].filter((e): e is [string, string] => typeof e[1] === "string");
  const get = (name: string) => strings.find(([k]) => k === name)?.[1];
  return {
    payload: formValuesToPayload(form, strings),
    values: entriesToFormValues(form, strings),
    formData: body.kind === "multipart" ? body.value : null,
    meta: metaFrom(req, get, siteOrigin),
  };
}

/** "currentChallenges.3" -> "currentChallenges": a list is one field on the form. */
export function byField(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) out[key.replace(/(?:\.\d+)+$/, "")] ??= message;
  return out;
}
