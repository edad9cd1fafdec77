/**
 * The operator's claims queue behind /admin's Claims tab (same gate as every admin handler):
 *
 *   GET   /api/admin/claims?status=pending|all  -> AdminClaimsReply
 *   PATCH /api/admin/claims/:id {decision: approve|refuse|revoke, reason?} -> AdminClaimReply
 *
 * Approving a claim makes the claimant an owner (via "operator") and e-mails them a sign-in
 * link (the answer's `mail` says whether it was sent, only kept for lack of a provider, or
 * waits for a retry); approving an "add" first lists the business (new id, unique slug, placed by its ZIP),
 * so before that it is in no directory list at all. Refusing needs a reason, which is kept
 * and e-mailed. Revoking a claim that made someone an owner (proved or approved) removes them
 * as an owner, which ends their sessions; the reason is kept. The effects run before the claim is marked decided and are idempotent (fixed
 * business id per claim, owners written once), so a retried or doubled approval lists
 * nothing twice; only the one that marks the claim decided sends the e-mail.
 */
import { CLAIM_ID } from "../../../src/lib/owners/choices.ts";
import {
  AdminClaimsQuery,
  ClaimDecision,
  type AdminClaimReply,
  type AdminClaimsReply,
  type Claim,
  type ClaimMail,
} from "../../../src/lib/owners/claims.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import type { Business, BusinessInput } from "../../../src/lib/schemas/business.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly } from "../directory.ts";
import { afterResponse, endpoint, jsonError, jsonResponse, storeCall, type Endpoint } from "../http.ts";
import type { Store } from "../store/index.ts";
import { claimRefused } from "../messages/owner.ts";
import { placeOfZip } from "../owners/forms.ts";
import { addOwner, removeOwner } from "../owners/session.ts";
import { sendSignInLink } from "../owners/sign-in.ts";
import { sendToOwner } from "../notify/index.ts";
import { adminSpec, readPatch, readQuery, type AdminDeps } from "./endpoint.ts";

export const ADMIN_CLAIM_ROUTE = "/api/admin/claims/:id" as const;

/** "Oak & Sons" in "San Antonio" -> "oak-sons-san-antonio". */
export function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 100)
      .replace(/-+$/, "") || "business"
  );
}

/** The first of slug, slug-2, slug-3... that no other business holds. */
async function freeSlug(store: Store, base: string, id: string): Promise<string> {
  for (let n = 1; n < 50; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const holder = await store.businesses.getBySlug(slug);
    if (!holder || holder.id === id) return slug;
  }
  return `${base}-${id.slice(-8)}`;
}

/**
 * The business an approved "add" lists: its id is fixed by the claim, so approving twice lists it
 * once. It says only what its owner gave: the hours given (or by appointment), the holidays they
 * chose (none: open on every one), years in business only if given. City, state, time zone and
 * place come from its ZIP.
 */
export async function businessFromClaim(store: Store, claim: Claim): Promise<BusinessInput> {
  const p = claim.proposal!;
  const id = `own-${claim.id.slice(3)}`;
  const place = placeOfZip(p.zipCode);
  return {
    id,
    name: p.businessName,
    slug: await freeSlug(store, slugify(`${p.businessName} ${p.city}`), id),
    description: "",
    city: p.city,
    state: p.state,
    zipCode: p.zipCode,
    address: p.address,
    phone: p.phone,
    email: p.businessEmail,
    ...(p.website ? { website: p.website } : {}),
    isFeatured: false,
    rating: "0.0",
    reviewCount: 0,
    services: p.services,
    specialties: [],
    serviceAreas: [],
    images: [],
    businessHours: p.businessHours ?? {},
    ...(p.byAppointment ? { byAppointment: true } : {}),
    closedHolidays: p.closedHolidays ?? [],
    ...(p.yearsInBusiness !== undefined ? { yearsInBusiness: p.yearsInBusiness } : {}),
    ...(place ? { location: place.location } : {}),
    ...(place?.timeZone ? { timeZone: place.timeZone } : {}),
  };
}

/**
 * What became of a claimant's e-mail, for the operator's answer: only a provider's "sent" is
 * sent; queued (deferred) or retrying ones wait for the notifier.
 */
export function claimMailOf(message: Pick<Message, "state">): ClaimMail {
  switch (message.state) {
    case "sent":
    case "kept":
    case "failed":
      return message.state;
    default:
      return "retrying";
  }
}

/** GET /api/admin/claims?status=pending|all&offset=&limit= -> AdminClaimsReply. */
export function adminClaimsHandler(deps: AdminDeps = {}): Endpoint {
  return endpoint(adminSpec("claims", ["GET"]), deps, async ({ req, store }) => {
    const { status, offset, limit } = readQuery(AdminClaimsQuery, req);
    const { items, total, pending } = await storeCall(() => store.claims.list({ status, offset, limit }));
    const reply: AdminClaimsReply = { data: items, total, pending };
    return jsonResponse(reply);
  });
}

/** PATCH /api/admin/claims/:id {decision, reason?} -> AdminClaimReply; 409 when already decided. */
export function adminClaimHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("claim", ["PATCH"]),
    route: { path: ADMIN_CLAIM_ROUTE, valid: (v: string) => CLAIM_ID.test(v), notFound: OWNER_MESSAGES.claimNotFound },
  };
  return endpoint(spec, deps, async ({ store, env, now, params: { id }, body, context }) => {
    const { decision, reason } = readPatch(ClaimDecision, body);
    const claim = await storeCall(() => store.claims.get(id));
    if (!claim) return jsonError(404, OWNER_MESSAGES.claimNotFound);
    const at = now();
    const decidedAt = new Date(at).toISOString();
    if (decision === "revoke") {
      // Someone who got in (by the contact on file, or approved) stops being an owner; every
      // session of theirs ends with it, as readOwnerSession checks ownership on each request.
      if ((claim.status !== "proved" && claim.status !== "approved") || !claim.businessId)
        return jsonError(409, OWNER_MESSAGES.notAnOwnersClaim, { data: claim });
      const businessId = claim.businessId;
      await storeCall(() => removeOwner(store, businessId, claim.claimant.email));
      const revoked: Claim = { ...claim, status: "revoked", reason: reason!, decidedAt };
      if (!(await storeCall(() => store.claims.settle(claim, revoked))))
        return jsonError(409, OWNER_MESSAGES.claimDecided);
      console.info(`[admin] claim ${claim.id}: owner removed from ${businessId}`);
      const reply: AdminClaimReply = { data: revoked };
      return jsonResponse(reply);
    }
    if (claim.status !== "pending") return jsonError(409, OWNER_MESSAGES.claimDecided, { data: claim });
    const notify = { env, now: () => at, ...deps.notify };
    const name = claim.businessName ?? claim.proposal?.businessName ?? "your business";

    if (decision === "refuse") {
      const refused: Claim = { ...claim, status: "refused", reason: reason!, decidedAt };
      if (!(await storeCall(() => store.claims.settle(claim, refused))))
        return jsonError(409, OWNER_MESSAGES.claimDecided);
      const to = { claimId: claim.id, to: claim.claimant.email, toName: claim.claimant.name };
      const sent = await storeCall(() =>
        sendToOwner(store, to, claimRefused({ businessName: name, reason: reason! }), notify),
      );
      console.info(`[admin] claim ${claim.id}: refused`);
      const reply: AdminClaimReply = { data: refused, mail: claimMailOf(sent) };
      return jsonResponse(reply);
    }

    let business: Business | null;
    if (claim.kind === "add") {
      const input = await storeCall(() => businessFromClaim(store, claim));
      business = await storeCall(() => store.businesses.upsert(input));
    } else {
      business = await storeCall(() => store.businesses.get(claim.businessId ?? ""));
      if (!business) return jsonError(409, "The claimed business is no longer in the directory.");
    }
    const biz = business;
    await storeCall(() => addOwner(store, biz.id, claim.claimant.email, "operator", at));
    const approved: Claim = {
      ...claim,
      status: "approved",
      businessId: biz.id,
      businessSlug: biz.slug,
      ...(reason ? { reason } : {}),
      decidedAt,
    };
    if (!(await storeCall(() => store.claims.settle(claim, approved))))
      return jsonError(409, OWNER_MESSAGES.claimDecided);
    if (claim.kind === "add") await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG, businessTag(biz.id)]));
    const sent = await storeCall(() =>
      sendSignInLink(
        store,
        env,
        at,
        { businessId: biz.id, email: claim.claimant.email, via: "operator", claimId: claim.id },
        {
          to: claim.claimant.email,
          toName: claim.claimant.name,
          businessName: biz.name,
          approved: true,
          notify: deps.notify,
        },
      ),
    );
    console.info(`[admin] claim ${claim.id}: approved for ${biz.id}`);
    const reply: AdminClaimReply = {
      data: approved,
      business: { id: biz.id, slug: biz.slug, name: biz.name },
      mail: claimMailOf(sent),
    };
    return jsonResponse(reply);
  });
}
