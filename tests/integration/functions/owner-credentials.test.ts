/**
 * Licence and insurance end to end against real Redis: the owner's no-JS form
 * (/owner/credentials), the operator's queue and check (/api/admin/credentials), and what the
 * public business page (BusinessView and its JSON-LD) shows after each step: nothing before
 * the check, the exact badge after it, nothing again once the owner changes the number, and
 * no insurance badge past the last day of cover.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCredentialHandler, adminCredentialsHandler } from "../../../netlify/lib/admin/credentials.ts";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import { businessPageFreshFor, credentialsFreshFor, loadBusinessPage } from "../../../netlify/lib/directory-page.ts";
import { businessBySlugHandler } from "../../../netlify/lib/directory.ts";
import { listChanges, rollbackChange } from "../../../netlify/lib/owners/changes.ts";
import {
  CREDENTIALS_NOTICES,
  CREDENTIALS_SUMMARY,
  ownerCredentialsHandler,
} from "../../../netlify/lib/owners/credentials.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { CREDENTIAL_MESSAGES } from "../../../src/lib/credentials/messages.ts";
import { OLD_TEXT_LEAD, removeOldTextLabel, oldTextNote } from "../../../src/lib/credentials/old-text.ts";
import {
  CREDENTIAL_CHANGED,
  credentialFingerprint,
  type AdminCredentialsReply,
} from "../../../src/lib/credentials/queue.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { businessJsonLd } from "../../../src/lib/jsonld.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { BusinessDetail } from "../../../src/islands/directory/detail/BusinessView.tsx";
import {
  ORIGIN,
  directoryDeps,
  formRequest,
  functionsHarness,
  getRequest,
  nextIp,
  ownedBusiness,
  patchRequest,
  testBusiness,
  type FunctionsHarness,
} from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-0123456789";
/** Noon in Baltimore on Nov 28, 2026. */
const NOON = Date.parse("2026-11-28T17:00:00Z");
const DAY = 24 * 60 * 60_000;

const h = await functionsHarness("owner-credentials");

describe.skipIf(!h)("licence and insurance", () => {
  let harness: FunctionsHarness;
  let clock = NOON;
  let deps: AdminDeps & { purges: string[][] };
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(() => {
    harness = h!;
    deps = directoryDeps(harness, {
      env: parseEnv({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "1000", SITE_URL: ORIGIN }),
      now: () => clock,
    });
  });
  afterAll(async () => {
    await h?.teardown();
  });

  /** A Maryland business with a signed-in owner: its id and the owner's Cookie header. */
  const mdBusiness = (id: string) =>
    ownedBusiness(
      harness.store,
      deps.env!,
      id,
      { state: "MD", zipCode: "21201", timeZone: "America/New_York", name: `Chesapeake Tree ${id}` },
      { now: clock },
    );

  const owner = () => ownerCredentialsHandler(deps);
  // Each write a second after the last, so the change history's order is the order of the steps.
  const tick = () => {
    clock += 1000;
  };
  const save = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    tick();
    const referer = `${ORIGIN}/owner/credentials`;
    return owner()(
      formRequest("/owner/credentials", Object.entries(fields), { cookie, referer, ...headers }),
      nextIp(),
    );
  };
  const licence = (number: string) => ({ licenceState: "MD", licenceType: "LTE", licenceNumber: number });
  const queue = async () => {
    const res = await adminCredentialsHandler(deps)(getRequest("/api/admin/credentials", { headers: auth }), nextIp());
    expect(res.status).toBe(200);
    return (await res.json()) as AdminCredentialsReply;
  };
  const decide = (id: string, body: unknown) => {
    tick();
    return adminCredentialHandler(deps)(patchRequest(`/api/admin/credentials/${id}`, body, auth), nextIp());
  };

  /** The public page as a visitor gets it now: the credentials section's text and the JSON-LD. */
  async function publicPage(id: string, now = clock) {
    const { page } = await loadBusinessPage(harness.store, `business-${id}`);
    const business = page!.business;
    const html = renderToStaticMarkup(createElement(BusinessDetail, { business, reviews: null, now }));
    const section = /<section[^>]*aria-labelledby="credentials-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    const text = section.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    return { text, jsonLd: businessJsonLd(business, [], `${ORIGIN}/directory/${business.slug}`), business };
  }

  it("without an owner session the page is the sign-in page (401), never the form", async () => {
    const res = await owner()(getRequest("/owner/credentials"), nextIp());
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.text()).not.toContain('name="licenceNumber"');
  });

  it("the form lists what each licensing state requires, without JavaScript", async () => {
    const { cookie } = await mdBusiness("md-form");
    const res = await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp());
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain('<select name="licenceState"');
    expect(html).toContain("Maryland (Maryland DNR Forest Service)");
    expect(html).toContain("Licensed Tree Expert (LTE): e.g. 1234.");
    expect(html).toContain("C-49 Tree and Palm contractor");
    expect(html).not.toContain("<script");
  });

  it("on a phone: the state rules start closed and the type options are short", async () => {
    const { cookie } = await mdBusiness("md-phone");
    const html = await (await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp())).text();
    // Open, the rules put ~1,000 px of text between the licence number and the insurance fields.
    expect(html).toContain("<details><summary>What each state requires</summary>");
    expect(html).not.toContain("<details open");
    expect(html).toContain('<option value="C-49">CA · C-49</option>');
    expect(html).toContain('<option value="LTCO">NJ · LTCO</option>');
    expect(html).not.toContain("CA: C-49");
    expect(html).toContain("<h2>What you have stated</h2>");
    expect(html).not.toContain("On your page now");
  });

  it("the operator's old free text: shown to the owner as their page says it, replaced by a structured save, back on rollback", async () => {
    const { id, cookie } = await mdBusiness("md-old");
    const old = { licenseNumber: "ISA Certified Arborist CA-6696A", insuranceDetails: "$2M general liability" };
    await harness.store.businesses.upsert({ ...(await harness.store.businesses.get(id))!, ...old });
    const get = async () => (await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp())).text();

    let html = await get();
    expect(html).toContain(`${escapeHtml(OLD_TEXT_LEAD)} ${escapeHtml(old.licenseNumber)}`);
    expect(html).toContain(`${escapeHtml(OLD_TEXT_LEAD)} ${escapeHtml(old.insuranceDetails)}`);
    expect(html).toContain(escapeHtml(oldTextNote("licence")));
    expect(html).not.toContain("none stated");
    let page = await publicPage(id);
    expect(page.text).toContain("As stated by the business Licence ISA Certified Arborist CA-6696A");

    // Saving a licence replaces the old licence text (the insurance text stays), in one change.
    expect((await save(cookie, licence("1234"))).status).toBe(303);
    let stored = (await harness.store.businesses.get(id))!;
    expect(stored.licenseNumber).toBeUndefined();
    expect(stored.insuranceDetails).toBe(old.insuranceDetails);
    const [change] = (await listChanges(harness.store, { businessId: id })).items;
    expect(change?.before).toMatchObject({ licenseNumber: old.licenseNumber, credentials: null });
    expect(change?.after).toMatchObject({ licenseNumber: null });
    expect(change?.before).not.toHaveProperty("insuranceDetails");
    page = await publicPage(id);
    expect(page.text).not.toContain(old.licenseNumber);
    expect(page.text).toContain(old.insuranceDetails);
    html = await get();
    expect(html).toContain("Not on your page until Treeline checks it");
    expect(html).not.toContain(escapeHtml(old.licenseNumber));

    // Once checked, the badge alone: never beside the old text.
    await decide(id, { licence: "checked" });
    page = await publicPage(id);
    expect(page.text).toContain("Licence MD LTE #1234, checked by Treeline on Nov 28, 2026");
    expect(page.text).not.toContain(old.licenseNumber);
    expect(await get()).toContain("On your page: checked on Nov 28, 2026");

    // Saving insurance clears the old insurance text; its date reads like the rest of the site.
    const ins = { insuranceCarrier: "Acme Mutual", insuranceCover: "$2M", insuranceExpiresOn: "2027-06-30" };
    expect((await save(cookie, { ...licence("1234"), ...ins })).status).toBe(303);
    stored = (await harness.store.businesses.get(id))!;
    expect(stored.insuranceDetails).toBeUndefined();
    expect((await publicPage(id)).text).not.toContain("As stated by the business");
    html = await get();
    expect(html).toContain("$2,000,000 general liability with Acme Mutual, until Jun 30, 2027");
    expect(html).not.toContain("2027-06-30<");

    // Rolling back the licence save brings the old text back (and takes the licence off).
    const licenceSave = (await listChanges(harness.store, { businessId: id })).items.find(
      (c) => c.after.licenseNumber === null,
    )!;
    clock += 1000;
    await rollbackChange(harness.store, licenceSave.id, clock, async () => {});
    stored = (await harness.store.businesses.get(id))!;
    expect(stored.licenseNumber).toBe(old.licenseNumber);
  });

  it("the operator's old free text can be taken off the page without stating anything in its place", async () => {
    const { id, cookie } = await mdBusiness("md-drop");
    const old = { licenseNumber: "ISA Certified Arborist MD-1111A", insuranceDetails: "$1M general liability" };
    await harness.store.businesses.upsert({ ...(await harness.store.businesses.get(id))!, ...old });
    const html = await (await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp())).text();
    expect(html).toContain(escapeHtml(removeOldTextLabel("insurance")));
    expect(html).toContain('name="removeOldInsurance"');

    expect((await save(cookie, { removeOldInsurance: "1" })).status).toBe(303);
    const stored = (await harness.store.businesses.get(id))!;
    expect(stored.insuranceDetails).toBeUndefined();
    expect(stored.licenseNumber).toBe(old.licenseNumber);
    expect(stored.credentials).toBeUndefined();
    const page = await publicPage(id);
    expect(page.text).not.toContain(old.insuranceDetails);
    expect(page.text).toContain(old.licenseNumber);
    // Once it is gone, the box to take it off goes too.
    const after = await (await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp())).text();
    expect(after).not.toContain('name="removeOldInsurance"');
    expect(after).toContain('name="removeOldLicence"');
  });

  it("MD LTE: no badge until the operator checks it, the exact badge after, gone when the owner changes the number", async () => {
    const { id, cookie } = await mdBusiness("md-1");

    const saved = await save(cookie, licence("LTE #01234"));
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(
      `/owner/credentials?saved=${encodeURIComponent(CREDENTIALS_NOTICES.waiting)}`,
    );
    expect(deps.purges.at(-1)).toEqual(["directory", `business-${id}`]);
    let page = await publicPage(id);
    expect(page.business.credentials).toEqual({ licence: { state: "MD", type: "LTE", number: "1234" } });
    const unchecked = await businessBySlugHandler(deps)(getRequest(`/api/businesses/slug/business-${id}`), nextIp());
    expect((await unchecked.json()).data).not.toHaveProperty("credentials");
    expect(page.text).not.toContain("Licence MD");
    expect(page.jsonLd).not.toHaveProperty("hasCredential");

    // The owner sees it waiting.
    const after = await owner()(getRequest(saved.headers.get("location")!, { headers: { cookie } }), nextIp());
    const ownerHtml = await after.text();
    expect(ownerHtml).toContain(escapeHtml(CREDENTIALS_NOTICES.waiting));
    expect(ownerHtml).toContain("Not on your page until Treeline checks it");

    // The operator's queue has it; checking it shows the badge on the next request.
    expect((await queue()).data.find((b) => b.businessId === id)?.credentials.licence?.number).toBe("1234");
    const checked = await decide(id, { licence: "checked", note: "MD DNR LTE register" });
    expect(checked.status).toBe(200);
    expect((await checked.json()).data).toMatchObject({ businessId: id, waitingSince: null });
    expect((await queue()).data.map((b) => b.businessId)).not.toContain(id);
    page = await publicPage(id);
    expect(page.text).toContain("Licence MD LTE #1234, checked by Treeline on Nov 28, 2026");
    expect(page.jsonLd.hasCredential).toEqual([
      {
        "@type": "EducationalOccupationalCredential",
        credentialCategory: "license",
        name: "Maryland Licensed Tree Expert (LTE)",
        identifier: "1234",
        recognizedBy: { "@type": "Organization", name: "Maryland DNR Forest Service" },
      },
    ]);
    // The public API carries the checked licence only, without the operator's note.
    const api = await businessBySlugHandler(deps)(getRequest(`/api/businesses/slug/business-${id}`), nextIp());
    expect((await api.json()).data.credentials).toEqual({
      licence: { state: "MD", type: "LTE", number: "1234", check: { checkedAt: new Date(clock).toISOString() } },
    });
    const history = await listChanges(harness.store, { businessId: id });
    expect(history.items.map((c) => [c.actor.kind, c.summary])).toEqual([
      ["operator", "Treeline: licence checked (MD DNR LTE register)"],
      ["owner", CREDENTIALS_SUMMARY],
    ]);

    // Saving the same licence again keeps the check.
    const same = await save(cookie, licence("1234"));
    expect(same.headers.get("location")).toContain(encodeURIComponent(CREDENTIALS_NOTICES.unchanged));
    expect((await publicPage(id)).text).toContain("Licence MD LTE #1234");

    // A new number drops the check: no badge, back in the queue.
    expect((await save(cookie, licence("1235"))).status).toBe(303);
    page = await publicPage(id);
    expect(page.text).not.toContain("Licence MD");
    expect(page.jsonLd).not.toHaveProperty("hasCredential");
    expect(page.business.credentials?.licence).toEqual({ state: "MD", type: "LTE", number: "1235" });
    expect((await queue()).data.find((b) => b.businessId === id)?.waitingSince).toBe(clock);
  });

  it("a wrong number is refused with the state's message, the typed values kept and nothing saved", async () => {
    const { id, cookie } = await mdBusiness("md-bad");
    const res = await save(cookie, licence("123456"));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Maryland LTE numbers are 1 to 5 digits, e.g. 1234");
    expect(html).toContain('value="123456"');
    expect((await harness.store.businesses.get(id))?.credentials).toBeUndefined();
    expect(await harness.store.redis.zscore(keyspace(harness.store.prefix).credentialsPending, id)).toBeNull();
  });

  it("another site's post is refused and changes nothing", async () => {
    const { id, cookie } = await mdBusiness("md-csrf");
    const res = await save(cookie, licence("77"), { origin: "https://evil.example", referer: "https://evil.example/" });
    expect(res.status).toBe(403);
    expect((await harness.store.businesses.get(id))?.credentials).toBeUndefined();
  });

  it("insurance: an expiry already past is refused; a checked one shows until its last day, then goes by itself", async () => {
    const { id, cookie } = await mdBusiness("md-ins");
    const insurance = (expiresOn: string) => ({
      insuranceCarrier: "Acme Mutual",
      insuranceCover: "$1,000,000",
      insuranceExpiresOn: expiresOn,
    });
    const past = await save(cookie, insurance("2026-11-27"));
    expect(past.status).toBe(400);
    expect(await past.text()).toContain(CREDENTIAL_MESSAGES.expired);

    expect((await save(cookie, insurance("2026-11-28"))).status).toBe(303);
    expect((await publicPage(id)).text).not.toContain("Insured");
    expect((await decide(id, { insurance: "checked" })).status).toBe(200);
    const badge = "Insured: $1,000,000 general liability (Acme Mutual), checked by Treeline on Nov 28, 2026";
    expect((await publicPage(id)).text).toContain(badge);
    // The cached copy leaves the CDN at midnight in Baltimore (12 hours after noon).
    const business = (await harness.store.businesses.get(id))!;
    expect(credentialsFreshFor(business, NOON + 11.5 * 60 * 60_000)).toBe(30 * 60);
    expect(credentialsFreshFor(business, NOON)).toBeUndefined();
    expect(businessPageFreshFor(business, NOON + 11.5 * 60 * 60_000)).toBe(30 * 60);

    // The next day: no badge, no write needed; the owner sees it expired.
    expect((await publicPage(id, NOON + DAY)).text).not.toContain("Insured");
    const today = clock;
    clock = NOON + DAY;
    const ownerPage = await (await owner()(getRequest("/owner/credentials", { headers: { cookie } }), nextIp())).text();
    expect(ownerPage).toContain("Expired on Nov 28, 2026: not on your page");
    clock = today;
  });

  it("the operator's rejection removes the credential and the business leaves the queue", async () => {
    const { id, cookie } = await mdBusiness("md-rej");
    await save(cookie, {
      ...licence("42"),
      insuranceCarrier: "Acme Mutual",
      insuranceCover: "2M",
      insuranceExpiresOn: "2027-06-30",
    });
    expect((await decide(id, { licence: "checked" })).status).toBe(200);
    // Still waiting: the insurance is not checked yet.
    expect((await queue()).data.map((b) => b.businessId)).toContain(id);
    const res = await decide(id, { insurance: "rejected", note: "certificate names another company" });
    expect(res.status).toBe(200);
    const stored = (await harness.store.businesses.get(id))!;
    expect(stored.credentials?.insurance).toBeUndefined();
    expect(stored.credentials?.licence?.check).toBeDefined();
    expect((await queue()).data.map((b) => b.businessId)).not.toContain(id);
    const [last] = (await listChanges(harness.store, { businessId: id })).items;
    expect(last?.summary).toBe("Treeline: insurance rejected (certificate names another company)");
  });

  it("a decision about a licence the owner changed since the operator looked is refused", async () => {
    const { id, cookie } = await mdBusiness("md-race");
    await save(cookie, licence("500"));
    const [seen] = (await queue()).data.filter((b) => b.businessId === id);
    await save(cookie, licence("501"));
    const res = await decide(id, {
      licence: "checked",
      seen: { licence: credentialFingerprint(seen!.credentials.licence!) },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(CREDENTIAL_CHANGED);
    expect((await harness.store.businesses.get(id))?.credentials?.licence?.check).toBeUndefined();
    const fresh = (await queue()).data.find((b) => b.businessId === id)!;
    const ok = await decide(id, {
      licence: "checked",
      seen: { licence: credentialFingerprint(fresh.credentials.licence!) },
    });
    expect(ok.status).toBe(200);
    expect((await publicPage(id)).text).toContain("Licence MD LTE #501, checked by Treeline");
  });

  it("the operator's API refuses what it cannot do", async () => {
    await harness.store.businesses.upsert(testBusiness("plain-1"));
    expect((await decide("plain-1", { licence: "checked" })).status).toBe(409);
    expect((await decide("nobody", { licence: "checked" })).status).toBe(404);
    const bad = await decide("plain-1", { licence: "maybe" });
    expect(bad.status).toBe(400);
    expect((await decide("plain-1", {})).status).toBe(400);
    const noToken = await adminCredentialsHandler(deps)(getRequest("/api/admin/credentials"), nextIp());
    expect(noToken.status).toBe(401);
  });
});
