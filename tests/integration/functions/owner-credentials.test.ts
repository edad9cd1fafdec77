/**
 * License and insurance end to end against real Redis: the owner's no-JS form
 * (/owner/credentials: its post in-process, the page through its page-data module on the
 * test's clock and, for its markup, from the built site), the operator's queue and check
 * (/api/admin/credentials), and what the public business page (BusinessView and its JSON-LD)
 * shows after each step: nothing before the check, the exact badge after it, nothing again
 * once the owner changes the number, and no insurance badge past the last day of cover.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCredentialHandler, adminCredentialsHandler } from "../../../netlify/lib/admin/credentials.ts";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import { businessPageFreshFor, credentialsFreshFor, loadBusinessPage } from "../../../netlify/lib/directory-page.ts";
import { businessBySlugHandler } from "../../../netlify/lib/directory.ts";
import { listChanges, rollbackChange } from "../../../netlify/lib/owners/changes.ts";
import { loadCredentials } from "../../../netlify/lib/page-data/owner.ts";
import {
  CREDENTIALS_NOTICES,
  CREDENTIALS_SUMMARY,
  ownerCredentialsHandler,
} from "../../../netlify/lib/owners/credentials.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { CREDENTIAL_MESSAGES } from "../../../src/lib/credentials/messages.ts";
import { OLD_TEXT_LEAD, removeOldTextLabel, oldTextNote } from "../../../src/lib/credentials/old-text.ts";
import type { Store } from "../../../netlify/lib/store/index.ts";
import {
  CREDENTIAL_CHANGED,
  credentialFingerprint,
  type AdminCredentialsReply,
} from "../../../src/lib/credentials/queue.ts";
import { parseEnv, type Env } from "../../../src/lib/env.ts";
import { businessJsonLd } from "../../../src/lib/jsonld.ts";
import { BusinessDetail } from "../../../src/islands/directory/detail/BusinessView.tsx";
import {
  ORIGIN,
  formRequest,
  getRequest,
  nextIp,
  ownedBusiness,
  patchRequest,
  testBusiness,
} from "../../helpers/functions.ts";
import { siteHarness } from "../../helpers/site.ts";

const TOKEN = "test-admin-token-0123456789";
const SECRET = "owner-credentials-link-secret-0123456789";
/** Noon in Baltimore on Nov 28, 2026. */
const NOON = Date.parse("2026-11-28T17:00:00Z");
const DAY = 24 * 60 * 60_000;

const site = await siteHarness("owner-credentials", { LINK_SIGNING_SECRET: SECRET, ADMIN_TOKEN: TOKEN });
afterAll(() => site?.stop());

describe.skipIf(!site)("license and insurance", () => {
  let clock = NOON;
  let deps: AdminDeps & { purges: string[][]; store: () => Store; env: Env };
  const auth = { authorization: `Bearer ${TOKEN}` };
  const store = () => site!.store;

  beforeAll(() => {
    const purges: string[][] = [];
    deps = {
      store,
      env: parseEnv({
        ADMIN_TOKEN: TOKEN,
        RATE_LIMIT_PER_MINUTE: "1000",
        SITE_URL: ORIGIN,
        LINK_SIGNING_SECRET: SECRET,
      }),
      now: () => clock,
      purge: async (tags) => void purges.push(tags),
      purges,
    };
  });

  const mdFields = (id: string) => ({
    state: "MD",
    zipCode: "21201",
    timeZone: "America/New_York",
    name: `Chesapeake Tree ${id}`,
  });
  /** A Maryland business with a signed-in owner (on the test's clock): its id and the owner's Cookie header. */
  const mdBusiness = (id: string) => ownedBusiness(store(), deps.env, id, mdFields(id), { now: clock });
  /** The same, with a session on the real clock, for the page as the built site serves it. */
  const mdServed = (id: string) => ownedBusiness(store(), deps.env, id, mdFields(id), { now: Date.now() });

  /** The owner's page on the test's clock (its page-data module): status, notice, problem, view. */
  const ownerPage = async (cookie: string, path = "/owner/credentials") => {
    const page = await loadCredentials(new Request(`${ORIGIN}${path}`, { headers: { cookie } }), deps);
    expect(page.view, `${path}: ${page.status}`).toBeDefined();
    return { ...page, view: page.view! };
  };
  /** "What you have stated", as its lines read. */
  const stated = async (cookie: string) =>
    (await ownerPage(cookie)).view.status
      .map((r) => `${r.label}: ${r.what}${r.note ? ` ${r.note.text}` : ""}`)
      .join("\n");

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
    const { page } = await loadBusinessPage(store(), `business-${id}`);
    const business = page!.business;
    const html = renderToStaticMarkup(createElement(BusinessDetail, { business, reviews: null, now }));
    const section = /<section[^>]*aria-labelledby="credentials-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    const text = section.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    return { text, jsonLd: businessJsonLd(business, [], `${ORIGIN}/directory/${business.slug}`), business };
  }

  it("without an owner session the page is the sign-in page (401), never the form", async () => {
    const { response, document } = await site!.page("/owner/credentials");
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(document.querySelector('[name="licenceNumber"]')).toBeNull();
  });

  it("the form lists what each licensing state requires, without JavaScript", async () => {
    const { cookie } = await mdServed("md-form");
    const { response, document, main } = await site!.page("/owner/credentials", { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(document.querySelector('main select[name="licenceState"]')).not.toBeNull();
    expect(main.textContent).toContain("Maryland (Maryland DNR Forest Service)");
    expect(main.textContent).toContain("Licensed Tree Expert (LTE): e.g. 1234.");
    expect(main.textContent).toContain("C-49 Tree and Palm contractor");
    expect(main.querySelector("script")).toBeNull();
  });

  it("on a phone: the state rules start closed and the type options are short", async () => {
    const { cookie } = await mdServed("md-phone");
    const { document, inMain, main } = await site!.page("/owner/credentials", { headers: { cookie } });
    // Open, the rules put ~1,000 px of text between the license number and the insurance fields.
    const details = main.querySelector("details")!;
    expect(details.querySelector("summary")?.textContent?.trim()).toBe("What each state requires");
    expect(details.hasAttribute("open")).toBe(false);
    const option = (value: string) => document.querySelector(`option[value="${value}"]`)?.textContent?.trim();
    expect(option("C-49")).toBe("CA · C-49");
    expect(option("LTCO")).toBe("NJ · LTCO");
    expect(main.textContent).not.toContain("CA: C-49");
    expect(inMain.getByRole("heading", { level: 2, name: "What you have stated" })).toBeTruthy();
    expect(main.textContent).not.toContain("On your page now");
    // US English wherever the owner reads it.
    expect(main.textContent).not.toMatch(/licence/i);
    expect(inMain.getByRole("heading", { level: 1 }).textContent).toBe("License & insurance");
  });

  it("the operator's old free text: shown to the owner as their page says it, replaced by a structured save, back on rollback", async () => {
    const { id, cookie } = await mdBusiness("md-old");
    const old = { licenseNumber: "ISA Certified Arborist CA-6696A", insuranceDetails: "$2M general liability" };
    await store().businesses.upsert({ ...(await store().businesses.get(id))!, ...old });
    const get = () => stated(cookie);

    let html = await get();
    expect(html).toContain(`${OLD_TEXT_LEAD} ${old.licenseNumber}`);
    expect(html).toContain(`${OLD_TEXT_LEAD} ${old.insuranceDetails}`);
    expect(html).toContain(oldTextNote("license"));
    expect(html).not.toContain("none stated");
    let page = await publicPage(id);
    expect(page.text).toContain("As stated by the business License ISA Certified Arborist CA-6696A");

    // Saving a licence replaces the old licence text (the insurance text stays), in one change.
    expect((await save(cookie, licence("1234"))).status).toBe(303);
    let stored = (await store().businesses.get(id))!;
    expect(stored.licenseNumber).toBeUndefined();
    expect(stored.insuranceDetails).toBe(old.insuranceDetails);
    const [change] = (await listChanges(store(), { businessId: id })).items;
    expect(change?.before).toMatchObject({ licenseNumber: old.licenseNumber, credentials: null });
    expect(change?.after).toMatchObject({ licenseNumber: null });
    expect(change?.before).not.toHaveProperty("insuranceDetails");
    page = await publicPage(id);
    expect(page.text).not.toContain(old.licenseNumber);
    expect(page.text).toContain(old.insuranceDetails);
    html = await get();
    expect(html).toContain("Not on your page until Treeline checks it");
    expect(html).not.toContain(old.licenseNumber);

    // Once checked, the badge alone: never beside the old text.
    await decide(id, { licence: "checked" });
    page = await publicPage(id);
    expect(page.text).toContain("License MD LTE #1234, checked by Treeline on Nov 28, 2026");
    expect(page.text).not.toContain(old.licenseNumber);
    expect(await get()).toContain("On your page: checked on Nov 28, 2026");

    // Saving insurance clears the old insurance text; its date reads like the rest of the site.
    const ins = { insuranceCarrier: "Acme Mutual", insuranceCover: "$2M", insuranceExpiresOn: "2027-06-30" };
    expect((await save(cookie, { ...licence("1234"), ...ins })).status).toBe(303);
    stored = (await store().businesses.get(id))!;
    expect(stored.insuranceDetails).toBeUndefined();
    expect((await publicPage(id)).text).not.toContain("As stated by the business");
    html = await get();
    expect(html).toContain("$2,000,000 general liability with Acme Mutual, until Jun 30, 2027");
    expect(html).not.toContain("2027-06-30<");

    // Rolling back the licence save brings the old text back (and takes the licence off).
    const licenceSave = (await listChanges(store(), { businessId: id })).items.find(
      (c) => c.after.licenseNumber === null,
    )!;
    clock += 1000;
    await rollbackChange(store(), licenceSave.id, clock, async () => {});
    stored = (await store().businesses.get(id))!;
    expect(stored.licenseNumber).toBe(old.licenseNumber);
  });

  it("the operator's old free text can be taken off the page without stating anything in its place", async () => {
    const { id, cookie } = await mdBusiness("md-drop");
    const old = { licenseNumber: "ISA Certified Arborist MD-1111A", insuranceDetails: "$1M general liability" };
    await store().businesses.upsert({ ...(await store().businesses.get(id))!, ...old });
    const boxes = async () => (await ownerPage(cookie)).view.form.removeOld;
    expect(await boxes()).toContainEqual({
      name: "removeOldInsurance",
      label: removeOldTextLabel("insurance"),
      checked: false,
    });

    expect((await save(cookie, { removeOldInsurance: "1" })).status).toBe(303);
    const stored = (await store().businesses.get(id))!;
    expect(stored.insuranceDetails).toBeUndefined();
    expect(stored.licenseNumber).toBe(old.licenseNumber);
    expect(stored.credentials).toBeUndefined();
    const page = await publicPage(id);
    expect(page.text).not.toContain(old.insuranceDetails);
    expect(page.text).toContain(old.licenseNumber);
    // Once it is gone, the box to take it off goes too.
    expect((await boxes()).map((b) => b.name)).toEqual(["removeOldLicence"]);
  });

  it("MD LTE: no badge until the operator checks it, the exact badge after, gone when the owner changes the number", async () => {
    const { id, cookie } = await mdBusiness("md-1");

    const saved = await save(cookie, licence("LTE #01234"));
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toMatch(/^\/owner\/credentials\?form=[\w-]{22}$/);
    expect(deps.purges.at(-1)).toEqual(["directory", `business-${id}`]);
    let page = await publicPage(id);
    expect(page.business.credentials).toEqual({ licence: { state: "MD", type: "LTE", number: "1234" } });
    const unchecked = await businessBySlugHandler(deps)(getRequest(`/api/businesses/slug/business-${id}`), nextIp());
    expect((await unchecked.json()).data).not.toHaveProperty("credentials");
    expect(page.text).not.toContain("License MD");
    expect(page.jsonLd).not.toHaveProperty("hasCredential");

    // The owner sees it waiting.
    const after = await ownerPage(cookie, saved.headers.get("location")!);
    expect(after.shell).toMatchObject({ kind: "signed-in", notice: CREDENTIALS_NOTICES.waiting });
    expect(await stated(cookie)).toContain("Not on your page until Treeline checks it");

    // The operator's queue has it; checking it shows the badge on the next request.
    expect((await queue()).data.find((b) => b.businessId === id)?.credentials.licence?.number).toBe("1234");
    const checked = await decide(id, { licence: "checked", note: "MD DNR LTE register" });
    expect(checked.status).toBe(200);
    expect((await checked.json()).data).toMatchObject({ businessId: id, waitingSince: null });
    expect((await queue()).data.map((b) => b.businessId)).not.toContain(id);
    page = await publicPage(id);
    expect(page.text).toContain("License MD LTE #1234, checked by Treeline on Nov 28, 2026");
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
    const history = await listChanges(store(), { businessId: id });
    expect(history.items.map((c) => [c.actor.kind, c.summary])).toEqual([
      ["operator", "Treeline: license checked (MD DNR LTE register)"],
      ["owner", CREDENTIALS_SUMMARY],
    ]);

    // Saving the same licence again keeps the check.
    const same = await save(cookie, licence("1234"));
    expect((await ownerPage(cookie, same.headers.get("location")!)).shell).toMatchObject({
      notice: CREDENTIALS_NOTICES.unchanged,
    });
    expect((await publicPage(id)).text).toContain("License MD LTE #1234");

    // A new number drops the check: no badge, back in the queue.
    expect((await save(cookie, licence("1235"))).status).toBe(303);
    page = await publicPage(id);
    expect(page.text).not.toContain("License MD");
    expect(page.jsonLd).not.toHaveProperty("hasCredential");
    expect(page.business.credentials?.licence).toEqual({ state: "MD", type: "LTE", number: "1235" });
    expect((await queue()).data.find((b) => b.businessId === id)?.waitingSince).toBe(clock);
  });

  it("a wrong number is refused with the state's message, the typed values kept and nothing saved", async () => {
    const { id, cookie } = await mdBusiness("md-bad");
    const res = await save(cookie, licence("123456"));
    expect(res.status).toBe(303);
    const page = await ownerPage(cookie, res.headers.get("location")!);
    expect(page.status).toBe(422);
    expect(page.view.form.errors.licenceNumber).toBe("Maryland LTE numbers are 1 to 5 digits, e.g. 1234");
    expect(page.view.form.values.licenceNumber).toBe("123456");
    // As the built site serves it (a session on the real clock): the message by its field, the typed value kept.
    const served = await site!.page(res.headers.get("location")!, {
      headers: { cookie: (await mdServed("md-bad")).cookie },
    });
    expect(served.response.status).toBe(422);
    const field = served.document.querySelector<HTMLInputElement>('input[name="licenceNumber"]')!;
    expect(field.value).toBe("123456");
    expect(field.getAttribute("aria-describedby")).toBe("licenceNumber-error");
    expect(served.document.getElementById("licenceNumber-error")?.textContent?.trim()).toBe(
      "Maryland LTE numbers are 1 to 5 digits, e.g. 1234",
    );
    expect((await store().businesses.get(id))?.credentials).toBeUndefined();
    expect(await store().redis.zscore(keyspace(store().prefix).credentialsPending, id)).toBeNull();
  });

  it("another site's post is refused and changes nothing", async () => {
    const { id, cookie } = await mdBusiness("md-csrf");
    const res = await save(cookie, licence("77"), { origin: "https://evil.example", referer: "https://evil.example/" });
    expect(res.status).toBe(303);
    expect((await ownerPage(cookie, res.headers.get("location")!)).status).toBe(403);
    expect((await store().businesses.get(id))?.credentials).toBeUndefined();
  });

  it("insurance: an expiry already past is refused; a checked one shows until its last day, then goes by itself", async () => {
    const { id, cookie } = await mdBusiness("md-ins");
    const insurance = (expiresOn: string) => ({
      insuranceCarrier: "Acme Mutual",
      insuranceCover: "$1,000,000",
      insuranceExpiresOn: expiresOn,
    });
    const past = await save(cookie, insurance("2026-11-27"));
    const refused = await ownerPage(cookie, past.headers.get("location")!);
    expect(refused.status).toBe(422);
    expect(refused.view.form.errors.insuranceExpiresOn).toBe(CREDENTIAL_MESSAGES.expired);

    expect((await save(cookie, insurance("2026-11-28"))).status).toBe(303);
    expect((await publicPage(id)).text).not.toContain("Insured");
    expect((await decide(id, { insurance: "checked" })).status).toBe(200);
    const badge = "Insured: $1,000,000 general liability (Acme Mutual), checked by Treeline on Nov 28, 2026";
    expect((await publicPage(id)).text).toContain(badge);
    // The cached copy leaves the CDN at midnight in Baltimore (12 hours after noon).
    const business = (await store().businesses.get(id))!;
    expect(credentialsFreshFor(business, NOON + 11.5 * 60 * 60_000)).toBe(30 * 60);
    expect(credentialsFreshFor(business, NOON)).toBeUndefined();
    expect(businessPageFreshFor(business, NOON + 11.5 * 60 * 60_000)).toBe(30 * 60);

    // The next day: no badge, no write needed; the owner sees it expired.
    expect((await publicPage(id, NOON + DAY)).text).not.toContain("Insured");
    const today = clock;
    clock = NOON + DAY;
    expect(await stated(cookie)).toContain("Expired on Nov 28, 2026: not on your page");
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
    const stored = (await store().businesses.get(id))!;
    expect(stored.credentials?.insurance).toBeUndefined();
    expect(stored.credentials?.licence?.check).toBeDefined();
    expect((await queue()).data.map((b) => b.businessId)).not.toContain(id);
    const [last] = (await listChanges(store(), { businessId: id })).items;
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
    expect((await store().businesses.get(id))?.credentials?.licence?.check).toBeUndefined();
    const fresh = (await queue()).data.find((b) => b.businessId === id)!;
    const ok = await decide(id, {
      licence: "checked",
      seen: { licence: credentialFingerprint(fresh.credentials.licence!) },
    });
    expect(ok.status).toBe(200);
    expect((await publicPage(id)).text).toContain("License MD LTE #501, checked by Treeline");
  });

  it("the operator's API refuses what it cannot do", async () => {
    await store().businesses.upsert(testBusiness("plain-1"));
    expect((await decide("plain-1", { licence: "checked" })).status).toBe(409);
    expect((await decide("nobody", { licence: "checked" })).status).toBe(404);
    const bad = await decide("plain-1", { licence: "maybe" });
    expect(bad.status).toBe(400);
    expect((await decide("plain-1", {})).status).toBe(400);
    const noToken = await adminCredentialsHandler(deps)(getRequest("/api/admin/credentials"), nextIp());
    expect(noToken.status).toBe(401);
  });
});
