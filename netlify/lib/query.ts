/**
 * Query strings read through a zod object schema, the same way for every API: each endpoint
 * keeps its own schema and its own 400 answer, only the reading is shared.
 */
import type { z } from "../../src/lib/zod.ts";
import { fieldErrors, type FieldErrors } from "../../src/lib/schemas/forms.ts";
import { repeatedParam, repeatedParamMessage } from "../../src/lib/query-params.ts";

export type QueryResult<T> = { ok: true; data: T } | { ok: false; fields: FieldErrors };

/**
 * Reads only the schema's own parameter names; one of them given twice is a 400 (see
 * query-params.ts), and unknown ones (utm_*, cache busters) are ignored.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, req: Request): QueryResult<z.output<S>> {
  const params = new URL(req.url).searchParams;
  const repeated = repeatedParam(params, Object.keys(schema.shape));
  if (repeated) return { ok: false, fields: { [repeated]: repeatedParamMessage(repeated) } };
  const parsed = schema.safeParse(
    Object.fromEntries(Object.keys(schema.shape).map((n) => [n, params.get(n) ?? undefined])),
  );
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, fields: fieldErrors(parsed.error) };
}
