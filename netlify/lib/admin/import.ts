/**
 * The operator's import behind /admin's Import tab (same gate as every admin handler):
 *
 *   POST /api/admin/import  multipart/form-data: file (CSV, docs/import.md), apply ("1" to write)
 *     -> AdminImportReply (src/lib/admin-import.ts); 400 when the file cannot be read, 413 above
 *        IMPORT_UPLOAD_LIMIT
 *
 * The same code as `npm run import` (netlify/lib/import/). Without `apply` it is a dry run;
 * with it, the writes stop at a time budget well inside a function's limit and the reply says
 * how many are left (applying again continues: a run never writes anything twice).
 */
import {
  ADMIN_IMPORT_PATH,
  IMPORT_NO_FILE,
  IMPORT_TOO_LARGE,
  IMPORT_UPLOAD_LIMIT,
  type AdminImportReply,
} from "../../../src/lib/admin-import.ts";
import { netlifyPurge } from "../directory.ts";
import { KB, decodeText, endpoint, jsonError, jsonResponse, storeCall, type Endpoint } from "../http.ts";
import { runImport } from "../import/run.ts";
import { adminSpec, type AdminDeps } from "./endpoint.ts";

export { ADMIN_IMPORT_PATH };
/** Writes start no later than this after the request came in (Netlify stops a function at 10 s by default). */
export const IMPORT_WRITE_BUDGET_MS = 6_000;
/** Room for the multipart envelope around a file of IMPORT_UPLOAD_LIMIT. */
const ENVELOPE = 16 * KB;

/** POST /api/admin/import -> AdminImportReply. */
export function adminImportHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("import", ["POST"]),
    body: { multipart: IMPORT_UPLOAD_LIMIT + ENVELOPE },
  };
  const handler = endpoint(spec, deps, async ({ store, body, now }) => {
    const started = now();
    const form = body!.value;
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0)
      return jsonError(400, IMPORT_NO_FILE, { fields: { file: IMPORT_NO_FILE } });
    if (file.size > IMPORT_UPLOAD_LIMIT)
      return jsonError(413, IMPORT_TOO_LARGE, { fields: { file: IMPORT_TOO_LARGE } });
    const csv = decodeText(new Uint8Array(await file.arrayBuffer()));
    const apply = ["1", "true", "on", "yes"].includes(String(form.get("apply") ?? "").toLowerCase());
    const result = await storeCall(
      () =>
        runImport(store, csv, apply ? { apply, purge, now, deadline: started + IMPORT_WRITE_BUDGET_MS } : { apply }),
      { step: "import" },
    );
    if (!result.ok) return jsonError(400, result.error, { fields: { file: result.error } });
    const { plan, summary, applied } = result;
    console.info(
      `[admin] import ${apply ? "applied" : "dry run"}: ${summary.rows} rows, ${summary.rejected} rejected, ` +
        `${summary.new} new, ${summary.updated} updated${applied ? `, ${applied.written} written, ${applied.remaining} left` : ""}`,
    );
    const reply: AdminImportReply = {
      applied: apply,
      summary,
      rejected: plan.rejected,
      merged: plan.merged,
      // The businesses' full records stay on the server: the report names them.
      changes: plan.changes.map(({ kind, lines, id, slug, name, city, state, ...rest }) => ({
        kind,
        lines,
        id,
        slug,
        name,
        city,
        state,
        ...("fields" in rest ? { fields: rest.fields } : {}),
        ...("reason" in rest ? { reason: rest.reason } : {}),
      })),
      ...(applied
        ? {
            remaining: applied.remaining,
            failed: applied.failed.map(({ name, lines, reason }) => ({ name, lines, reason })),
          }
        : {}),
    };
    return jsonResponse(reply);
  });
  // The upload's own 413 text, not the generic one.
  const wrapped: Endpoint = async (req, context) => {
    const res = await handler(req, context);
    if (res.status !== 413) return res;
    const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "content-length"));
    return jsonError(413, IMPORT_TOO_LARGE, { fields: { file: IMPORT_TOO_LARGE } }, headers);
  };
  return wrapped;
}
