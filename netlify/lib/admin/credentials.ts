/**
 * The operator's check of owners' licenses and insurance, behind the same gate as every admin
 * endpoint (endpoint.ts adminSpec):
 *
 *   GET   /api/admin/credentials              -> AdminCredentialsReply: the queue, oldest first
 *   PATCH /api/admin/credentials/:businessId  { licence?, insurance?: "checked" | "rejected", note? }
 *
 * Checking sets the credential's `check` ({ checkedAt, note }); rejecting removes the
 * credential from the listing (the change history keeps it, with the note, and a rollback
 * brings it back). Both go through applyListingChange as the operator, so the public page
 * shows the result on the next request. The business leaves the queue when nothing is left
 * to check.
 */
import {
  CREDENTIAL_PART_WORDS,
  CREDENTIAL_CHANGED,
  CredentialsPatch,
  credentialFingerprint,
  needsCheck,
  type AdminCredentialItem,
  type AdminCredentialsReply,
} from "../../../src/lib/credentials/queue.ts";
import { Business } from "../../../src/lib/schemas/business.ts";
import type { Credentials } from "../../../src/lib/schemas/credentials.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { BUSINESS_NOT_FOUND } from "../../../src/lib/directory.ts";
import { netlifyPurge } from "../directory.ts";
import { HttpError, endpoint, jsonError, jsonResponse, storeCall, type Endpoint } from "../http.ts";
import { applyListingChange } from "../owners/changes.ts";
import { ADMIN_QUERY_ERROR, adminSpec, type AdminDeps } from "./endpoint.ts";

export const CREDENTIALS_ROUTE = "/api/admin/credentials/:businessId";
/** The most businesses one answer lists (the queue is worked from the top). */
export const CREDENTIALS_PAGE = 100;

const isBusinessId = (v: string) => Business.shape.id.safeParse(v).success;

function itemOf(b: Business, waitingSince: number | null): AdminCredentialItem {
  return {
    businessId: b.id,
    name: b.name,
    slug: b.slug,
    state: b.state,
    ...(b.timeZone ? { timeZone: b.timeZone } : {}),
    credentials: b.credentials ?? {},
    waitingSince,
  };
}

/** GET /api/admin/credentials -> the businesses waiting for a check, longest waiting first. */
export function adminCredentialsHandler(deps: AdminDeps = {}): Endpoint {
  return endpoint(adminSpec("credentials", ["GET"]), deps, async ({ store }) => {
    const { entries, total: pending } = await storeCall(() => store.credentialChecks.waiting(CREDENTIALS_PAGE));
    const since = new Map(entries);
    const businesses = await storeCall(() => store.businesses.getMany([...since.keys()]));
    const reply: AdminCredentialsReply = {
      data: businesses.map((b) => itemOf(b, since.get(b.id) ?? null)),
      pending,
    };
    return jsonResponse(reply);
  });
}

/** PATCH /api/admin/credentials/:businessId -> { data: AdminCredentialItem }. */
export function adminCredentialHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("credential", ["PATCH"]),
    route: { path: CREDENTIALS_ROUTE as typeof CREDENTIALS_ROUTE, valid: isBusinessId, notFound: BUSINESS_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ store, params: { businessId }, body, now }) => {
    const parsed = CredentialsPatch.safeParse(body?.value);
    if (!parsed.success) throw new HttpError(400, ADMIN_QUERY_ERROR, { extra: { fields: fieldErrors(parsed.error) } });
    const patch = parsed.data;
    const business = await storeCall(() => store.businesses.get(businessId));
    if (!business) return jsonError(404, BUSINESS_NOT_FOUND);
    const current = business.credentials ?? {};
    for (const part of ["licence", "insurance"] as const) {
      const stated = current[part];
      if (patch[part] && !stated) return jsonError(409, `This business states no ${part}.`);
      const seen = patch.seen?.[part];
      if (patch[part] && stated && seen !== undefined && seen !== credentialFingerprint(stated))
        return jsonError(409, CREDENTIAL_CHANGED);
    }
    const check = { checkedAt: new Date(now()).toISOString(), ...(patch.note ? { note: patch.note } : {}) };
    const next: Credentials = { ...current };
    const said: string[] = [];
    if (patch.licence === "checked") next.licence = { ...current.licence!, check };
    if (patch.licence === "rejected") delete next.licence;
    if (patch.insurance === "checked") next.insurance = { ...current.insurance!, check };
    if (patch.insurance === "rejected") delete next.insurance;
    for (const part of ["licence", "insurance"] as const)
      if (patch[part]) said.push(`${CREDENTIAL_PART_WORDS[part]} ${patch[part]}`);
    const summary = `Treeline: ${said.join(", ")}${patch.note ? ` (${patch.note})` : ""}`;
    const { business: saved } = await storeCall(() =>
      applyListingChange(
        store,
        {
          businessId,
          actor: { kind: "operator" },
          summary: summary.charAt(0).toUpperCase() + summary.slice(1),
          patch: { credentials: next.licence || next.insurance ? next : null },
        },
        now(),
        purge,
      ),
    );
    console.info(`[admin] credentials of ${businessId}: ${said.join(", ")}; waiting=${needsCheck(saved.credentials)}`);
    const since = await storeCall(() => store.credentialChecks.waitingSince(businessId));
    return jsonResponse({ data: itemOf(saved, since) });
  });
}
