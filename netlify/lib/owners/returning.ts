/**
 * A returning owner signs in from /owner without claiming again (docs/owners.md "Signing in
 * again"): they enter the e-mail they run a listing with, or the business's phone on file.
 *
 *   POST /owner {address}   -> 303 /owner, the same page whatever the address
 *
 * An owner e-mail gets a sign-in link for each business it runs; a phone on file of a business
 * that has an owner gets a sign-in link by text (signing in as its longest-standing owner).
 * Each link is stored before its message goes, and works only while that owner still is one.
 * The answer never says whether the address is on file: the page is the same either way, its
 * words depend only on which providers are set up, and the sends run after the response (the
 * response's timing tells nothing either). The per-business send limit and the daily text caps
 * apply as to a claim; a business over one is skipped in silence (a 429 would say it is there).
 */
import { SignInRequestInput } from "../../../src/lib/owners/forms.ts";
import { CLAIMS_PER_MINUTE, SENDS_PER_BUSINESS_PER_MINUTE } from "../../../src/lib/owners/limits.ts";
import { maskEmail, maskPhone } from "../../../src/lib/owners/masks.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { VALIDATION_ERROR, fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { afterResponse, endpoint, storeCall, type Endpoint, type Env } from "../http.ts";
import { signInLinkText } from "../messages/owner.ts";
import { sendToOwner } from "../notify/index.ts";
import { checkRateLimit } from "../ratelimit.ts";
import type { Store } from "../store/index.ts";
import { newClaimId } from "./claims.ts";
import { INVALID_STATUS, backToPage, postedValues, signedOutSpec, type OwnerAuthDeps } from "./page.ts";
import { OWNER_PATH } from "./session.ts";
import { sendSignInLink } from "./sign-in.ts";
import { codesPausedFor, countCodeSend, issueSignInLink } from "./tokens.ts";

export const RETURNING_ROUTE = OWNER_PATH;

/** At most this many businesses get a link from one request (an owner of more asks again). */
export const MAX_BUSINESSES_PER_SIGN_IN = 5;

/** "(208) 555-0100" -> "2085550100"; null for what is not a US number. */
function national(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  const n = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return n.length === 10 ? n : null;
}

/** The per-business send limit, as a claim has it, without a 429: false = skip this business. */
async function maySend(store: Store, businessId: string, perMinute: number, now: () => number): Promise<boolean> {
  return (await checkRateLimit(store, "owner-send", businessId, perMinute, now)).ok;
}

/** Links by e-mail to `email` for each business it is (still) an owner of. */
async function mailOwner(store: Store, env: Env, deps: OwnerAuthDeps, email: string, now: () => number) {
  const ids = await store.owners.businessesOf(email);
  let sent = 0;
  for (const id of ids) {
    if (sent >= MAX_BUSINESSES_PER_SIGN_IN) break;
    if (!(await store.owners.has(id, email))) continue;
    const business = await store.businesses.get(id);
    if (!business) continue;
    if (!(await maySend(store, id, deps.sendsPerBusiness ?? SENDS_PER_BUSINESS_PER_MINUTE, now))) continue;
    const at = now();
    const grant = { businessId: id, email, via: "email", claimId: newClaimId(), ownerOnly: true } as const;
    const m = await sendSignInLink(store, env, at, grant, {
      to: email,
      businessName: business.name,
      notify: { env, now: () => at, ...deps.notify },
    });
    console.info(`[owner] ${grant.claimId}: returning owner's link for ${id} ${m.state}`);
    sent++;
  }
}

/** Links by text to the phone on file of each owned business with that number. */
async function textBusinesses(store: Store, env: Env, deps: OwnerAuthDeps, phone: string, now: () => number) {
  const owned = await store.owners.owned();
  const matches: Business[] = (await store.businesses.getMany(owned)).filter(
    (b) => b.phone && national(b.phone) === phone,
  );
  for (const business of matches.slice(0, MAX_BUSINESSES_PER_SIGN_IN)) {
    const [owner] = await store.owners.list(business.id);
    if (!owner) continue;
    const at = now();
    // The same guards as a texted code: the per-minute limit, a business paused by wrong codes,
    // and the daily caps per business and per phone number (each link is a text to that phone).
    if (!(await maySend(store, business.id, deps.sendsPerBusiness ?? SENDS_PER_BUSINESS_PER_MINUTE, now))) continue;
    if ((await codesPausedFor(store, business.id)) > 0) continue;
    if (!(await countCodeSend(store, business.id, business.phone!, at))) continue;
    const grant = {
      businessId: business.id,
      email: owner.email,
      via: "sms",
      claimId: newClaimId(),
      ownerOnly: true,
    } as const;
    const { path } = await issueSignInLink(store, grant, at);
    const m = await sendToOwner(
      store,
      { claimId: grant.claimId, to: business.phone!, toName: business.name },
      signInLinkText({ businessName: business.name, url: `${env.siteUrl}${path}` }),
      { env, now: () => at, ...deps.notify },
    );
    console.info(`[owner] ${grant.claimId}: returning owner's text for ${business.id} ${m.state}`);
  }
}

export function returningSignInHandler(deps: OwnerAuthDeps = {}): Endpoint {
  return endpoint(
    { ...signedOutSpec("sign-in-request", CLAIMS_PER_MINUTE), formPage: () => RETURNING_ROUTE },
    deps,
    async ({ store, env, now, body, context }) => {
      const values = postedValues(body!.value);
      const parsed = SignInRequestInput.safeParse(values);
      if (!parsed.success)
        return backToPage(store, {
          path: RETURNING_ROUTE,
          status: INVALID_STATUS,
          values,
          errors: fieldErrors(parsed.error),
          problem: VALIDATION_ERROR,
        });
      const { kind, value } = parsed.data.address;
      const work =
        kind === "email" ? mailOwner(store, env, deps, value, now) : textBusinesses(store, env, deps, value, now);
      // After the answer: how long it takes must not tell whether the address is on file.
      await afterResponse(
        context,
        storeCall(() => work, { step: "message" }).catch((error: unknown) =>
          console.error(`[owner] returning sign-in failed (${error instanceof Error ? error.name : typeof error})`),
        ),
      );
      return backToPage(store, {
        path: RETURNING_ROUTE,
        status: 200,
        values: { requested: kind, to: kind === "email" ? maskEmail(value) : maskPhone(value) },
      });
    },
  );
}
