/**
 * The operator's API (/api/admin/*) against a real Redis: the token gate (disabled, 401,
 * lockout, constant-time compare), the inbox (paging, type filter, search, status and note),
 * the CSV export (quoting, formula escaping), review moderation and its effect on the public
 * reviews list and rating, and the outbox view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import { adminLeadHandler, adminLeadsCsvHandler, adminLeadsHandler } from "../../../netlify/lib/admin/leads.ts";
import { adminMessagesHandler } from "../../../netlify/lib/admin/messages.ts";
import { adminLeadOffersHandler } from "../../../netlify/lib/admin/offers.ts";
import { adminOutboxHandler } from "../../../netlify/lib/admin/outbox.ts";
import { adminReviewHandler, adminReviewsHandler } from "../../../netlify/lib/admin/reviews.ts";
import { LOCKOUT_SECONDS, MAX_FAILURES, tokensMatch } from "../../../netlify/lib/admin/auth.ts";
import { reviewsHandler } from "../../../netlify/lib/directory-reviews.ts";
import { QUOTE_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { ADMIN_DISABLED, LEAD_STATUS_LABELS } from "../../../src/lib/admin.ts";
import {
  ORIGIN,
  directoryDeps,
  functionsHarness,
  getRequest,
  humanStarted,
  jsonRequest,
  nextIp,
  patchRequest,
  testBusiness,
  validQuote,
  type FunctionsHarness,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const TOKEN = "test-admin-token-0123456789";

/**
 * RFC 4180 reader for the assertions (deliberately not the writer's library, so the test
 * checks the file, not the library against itself): rows of objects keyed by the header.
 */
function readCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && src[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  const [header = [], ...body] = rows;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
}
const h = await functionsHarness("admin");

describe.skipIf(!h)("admin API", () => {
  let harness: FunctionsHarness;
  let deps: AdminDeps & { purges: string[][] };
  const auth = { authorization: `Bearer ${TOKEN}` };
  const get = (path: string, headers: Record<string, string> = auth) => getRequest(path, { headers });
  const patch = (path: string, body: unknown, headers: Record<string, string> = auth) =>
    patchRequest(path, body, headers);

  beforeAll(() => {
    harness = h!;
    const purges: string[][] = [];
    deps = {
      store: () => harness.store,
      env: parseEnv({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "1000" }),
      purge: async (tags) => void purges.push(tags),
      purges,
    };
  });
  afterAll(async () => {
    await h?.teardown();
  });

  async function submitQuote(over: Record<string, unknown> = {}) {
    const res = await harness.handler(QUOTE_ENDPOINT, { notify: async () => {} })(
      jsonRequest("/api/quote", { ...validQuote(), ...over, _started: humanStarted() }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    return (await res.json()).id as string;
  }

  describe("the token gate", () => {
    it("is disabled without ADMIN_TOKEN (and with a short one), on every endpoint", async () => {
      const handlers = [
        adminLeadsHandler,
        adminLeadHandler,
        adminLeadsCsvHandler,
        adminLeadOffersHandler,
        adminReviewsHandler,
        adminReviewHandler,
        adminOutboxHandler,
        adminMessagesHandler,
      ];
      for (const env of [{}, { ADMIN_TOKEN: "   " }, { ADMIN_TOKEN: "short" }].map((raw) => parseEnv(raw))) {
        for (const make of handlers) {
          const res = await make({ ...deps, env })(get("/api/admin/leads"), nextIp());
          expect(res.status).toBe(503);
          expect(res.headers.get("cache-control")).toBe("no-store");
          const body = await res.json();
          expect(body.error).toContain(ADMIN_DISABLED);
          expect(body.disabled).toBe(true);
        }
      }
    });

    it("401s a missing or wrong token, with no data", async () => {
      await submitQuote();
      const leads = adminLeadsHandler(deps);
      for (const headers of [
        {},
        { authorization: "Bearer wrong" },
        { authorization: `Basic ${TOKEN}` },
        { authorization: `Bearer ${TOKEN}x` },
        { authorization: TOKEN },
      ] as Record<string, string>[]) {
        const res = await leads(get("/api/admin/leads", headers), nextIp());
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(res.headers.get("cache-control")).toBe("no-store");
        const text = await res.text();
        expect(text).not.toContain("Jane");
        expect(Object.keys(JSON.parse(text))).toEqual(["error"]);
      }
      const csv = await adminLeadsCsvHandler(deps)(get("/api/admin/leads.csv", {}), nextIp());
      expect(csv.status).toBe(401);
    });

    it("locks an address out after repeated wrong tokens, even for the right one", async () => {
      const leads = adminLeadsHandler(deps);
      const ip = nextIp();
      for (let i = 0; i < MAX_FAILURES; i++)
        expect((await leads(get("/api/admin/leads", { authorization: `Bearer guess-${i}` }), ip)).status).toBe(401);
      const locked = await leads(get("/api/admin/leads"), ip);
      expect(locked.status).toBe(429);
      const wait = Number(locked.headers.get("retry-after"));
      // The window is the first failure's: set with its expiry in one step, never open-ended.
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(LOCKOUT_SECONDS);
      // Another address is not affected.
      expect((await leads(get("/api/admin/leads"), nextIp())).status).toBe(200);
    });

    it("compares tokens of any length without throwing", () => {
      expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
      expect(tokensMatch("", TOKEN)).toBe(false);
      expect(tokensMatch(`${TOKEN}${TOKEN}`, TOKEN)).toBe(false);
    });

    it("answers no-store, noindex and 405 with Allow", async () => {
      const res = await adminLeadsHandler(deps)(get("/api/admin/leads"), nextIp());
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("netlify-cdn-cache-control")).toBe("no-store");
      expect(res.headers.get("x-robots-tag")).toMatch(/noindex/);
      const post = await adminLeadsHandler(deps)(
        new Request(`${ORIGIN}/api/admin/leads`, { method: "POST", headers: auth }),
        nextIp(),
      );
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET");
    });
  });

  describe("leads", () => {
    it("lists newest first with a cursor, by type, with counts", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await submitQuote({ name: `Pager Person ${i}`, email: `pager${i}@example.com` }));
        await new Promise((r) => setTimeout(r, 2));
      }
      const leads = adminLeadsHandler(deps);
      const seen: string[] = [];
      let cursor = "";
      let pages = 0;
      do {
        const res = await leads(
          get(`/api/admin/leads?type=quote&q=pager&limit=2${cursor ? `&cursor=${cursor}` : ""}`),
          nextIp(),
        );
        expect(res.status).toBe(200);
        const body = await res.json();
        seen.push(...body.data.map((l: { id: string }) => l.id));
        cursor = body.nextCursor ?? "";
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].reverse());

      const plain = await (await leads(get("/api/admin/leads?type=quote&limit=2"), nextIp())).json();
      expect(plain.data.map((l: { id: string }) => l.id)).toEqual([ids[4], ids[3]]);
      expect(plain.counts.quote).toBeGreaterThanOrEqual(5);
      expect(plain.counts.audit).toBe(0);
      const audits = await (await leads(get("/api/admin/leads?type=audit"), nextIp())).json();
      expect(audits.data).toEqual([]);
    });

    it("searches by name, e-mail and phone (punctuation ignored)", async () => {
      const id = await submitQuote({ name: "Zoë Quinterro", email: "zq@example.org", phone: "+1 (737) 555-0142" });
      const leads = adminLeadsHandler(deps);
      for (const q of ["zoe quint", "ZQ@EXAMPLE", "737-555-0142", "(737) 5550142", "7375550142", "17375550142"]) {
        const body = await (await leads(get(`/api/admin/leads?q=${encodeURIComponent(q)}`), nextIp())).json();
        expect(
          body.data.map((l: { id: string }) => l.id),
          q,
        ).toEqual([id]);
      }
      const none = await (await leads(get("/api/admin/leads?q=nobody-like-this"), nextIp())).json();
      expect(none).toMatchObject({ data: [], nextCursor: null });
    });

    it("finds a lead by its reference, with or without TL-, any case, spaces for dashes; then the text search", async () => {
      const id = await submitQuote({ name: "Reference Person", email: "ref.person@example.com" });
      const reference = (await harness.store.leads.get(id))!.reference!;
      const body = reference.slice(3);
      const leads = adminLeadsHandler(deps);
      const spellings = [
        reference,
        body,
        reference.toLowerCase(),
        body.toLowerCase(),
        ` ${reference.replace(/-/g, " ")} `,
      ];
      for (const q of spellings) {
        const found = await (await leads(get(`/api/admin/leads?q=${encodeURIComponent(q)}`), nextIp())).json();
        expect(found.data[0]?.id, q).toBe(id);
        expect(
          found.data.filter((l: { id: string }) => l.id === id),
          q,
        ).toHaveLength(1);
      }
      // The filters still apply (the lead is a quote), and a later page repeats nothing.
      const audits = await (await leads(get(`/api/admin/leads?type=audit&q=${body}`), nextIp())).json();
      expect(audits.data).toEqual([]);
      const cursor = `ld_${"z".repeat(19)}`;
      const later = await (await leads(get(`/api/admin/leads?q=${body}&cursor=${cursor}`), nextIp())).json();
      expect(later.data.map((l: { id: string }) => l.id)).not.toContain(id);
      // A reference nobody has finds nothing; a name still finds its lead.
      const unknown = await (await leads(get("/api/admin/leads?q=TL-ZZZZ-ZZ"), nextIp())).json();
      expect(unknown.data).toEqual([]);
      const byName = await (await leads(get("/api/admin/leads?q=reference%20person"), nextIp())).json();
      expect(byName.data.map((l: { id: string }) => l.id)).toEqual([id]);
    });

    it("400s a bad query", async () => {
      const leads = adminLeadsHandler(deps);
      for (const q of ["type=spam", "status=won", "cursor=(bad", "limit=0", "limit=1000", `q=${"x".repeat(101)}`]) {
        const res = await leads(get(`/api/admin/leads?${q}`), nextIp());
        expect(res.status, q).toBe(400);
        expect(Object.keys((await res.json()).fields ?? {})).toHaveLength(1);
      }
    });

    it("shows one lead with its outbox item; the operator closes and reopens it, with a note and history", async () => {
      const id = await submitQuote({ name: "Status Person" });
      const lead = adminLeadHandler(deps);
      const shown = await (await lead(get(`/api/admin/leads/${id}`), { ...nextIp(), params: { id } })).json();
      // Where it starts is what its offers say (the store's statusOf): never "closed".
      const start = shown.data.status as string;
      expect(["new", "offered", "escalated"]).toContain(start);
      expect(shown.data).toMatchObject({ id, data: { name: "Status Person", estimatedCost: "$900 - $4,500" } });
      expect(shown.outbox).toMatchObject({ leadId: id, attempts: 0 });

      const closed = await lead(
        patch(`/api/admin/leads/${id}`, { closed: true, note: "Called, found someone" }),
        nextIp(),
      );
      expect(closed.status).toBe(200);
      expect((await closed.json()).data).toMatchObject({
        status: "closed",
        note: "Called, found someone",
        history: [{ from: start, to: "closed", note: "Called, found someone" }],
      });
      const reopened = await (await lead(patch(`/api/admin/leads/${id}`, { closed: false }), nextIp())).json();
      expect(reopened.data.status).toBe(start);
      expect(reopened.data.history.map((c: { to: string }) => c.to)).toEqual(["closed", start]);
      expect((await harness.store.leads.get(id))?.status).toBe(start);

      // The status itself is not the operator's to set: it follows the offers.
      for (const body of [
        {},
        { status: "accepted" },
        { status: "closed" },
        { closed: "yes" },
        { note: "x".repeat(2001) },
        { closed: true, extra: 1 },
      ]) {
        expect((await lead(patch(`/api/admin/leads/${id}`, body), nextIp())).status, JSON.stringify(body)).toBe(400);
      }
      expect((await lead(patch("/api/admin/leads/ld_doesnotexist0000000", { closed: true }), nextIp())).status).toBe(
        404,
      );
      expect((await lead(get("/api/admin/leads/nonsense"), nextIp())).status).toBe(404);
      const text = await lead(
        patchRequest(`/api/admin/leads/${id}`, "x", { ...auth, "content-type": "text/plain" }),
        nextIp(),
      );
      expect(text.status).toBe(415);
    });
  });

  describe("CSV export", () => {
    it("quotes correctly and escapes formulas", async () => {
      const id = await submitQuote({
        name: '=HYPERLINK("http://evil.example","Click")',
        email: "csv@example.com",
        phone: "+1 512 555 0100",
        address: '12 "Quoted" Rd,\nLine two, Austin',
        treeDetails: { treeType: "@SUM(A1:A2)", height: "-2+3" },
      });
      const res = await adminLeadsCsvHandler(deps)(get("/api/admin/leads.csv?type=quote"), nextIp());
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="treeline-leads-quote-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes);
      const rows = readCsv(text);
      const row = rows.find((r) => r["Lead ID"] === id)!;
      expect(row.Name).toBe(`'=HYPERLINK("http://evil.example","Click")`);
      expect(row.Phone).toBe("'+1 512 555 0100");
      // A one-line field: the line break arrives as a space (src/lib/schemas/text.ts).
      expect(row["Address / Location"]).toBe('12 "Quoted" Rd, Line two, Austin');
      expect(row.Type).toBe("Quote request");
      // The status as its offers leave it (a quote is routed: offered, or the operator's).
      expect(row.Status).toBe(LEAD_STATUS_LABELS[(await harness.store.leads.get(id))!.status]);
      expect(["Offered", "Escalated"]).toContain(row.Status);
      expect(row.Estimate).toBe("$900 - $4,500");
      expect(row["All fields"]).toContain("treeDetails.treeType: @SUM(A1:A2)");
      // Every row of this prefix's quotes, newest first; none of another type.
      expect(rows.every((r) => r.Type === "Quote request")).toBe(true);
      expect(rows[0]!["Lead ID"]).toBe(id);
      // No cell starts with a live formula character.
      for (const r of rows) for (const cell of Object.values(r)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    });

    it("exports a header only when there are no leads of the type", async () => {
      const res = await adminLeadsCsvHandler(deps)(get("/api/admin/leads.csv?type=assessment"), nextIp());
      const text = await res.text();
      expect(text.trim().split("\r\n")).toHaveLength(1);
      expect(text).toContain("Lead ID,Received (UTC),Type,Status");
      expect((await adminLeadsCsvHandler(deps)(get("/api/admin/leads.csv?type=nope"), nextIp())).status).toBe(400);
    });
  });

  describe("reviews", () => {
    it("hides and shows reviews (no Verify); public lists and rating follow; caches are purged", async () => {
      await harness.store.businesses.upsert(testBusiness("adm-1"));
      const good = await harness.store.reviews.add(
        "adm-1",
        { customerName: "Good", customerEmail: "good@example.com", rating: 5 },
        { createdAt: "2024-06-01T00:00:00Z" },
      );
      const spam = await harness.store.reviews.add(
        "adm-1",
        { customerName: "Spam", rating: 1 },
        { createdAt: "2024-06-02T00:00:00Z" },
      );
      const publicList = async () => {
        const res = await reviewsHandler(directoryDeps(harness))(getRequest("/api/businesses/adm-1/reviews"), {
          params: { id: "adm-1" },
        });
        return res.json();
      };
      expect(await publicList()).toMatchObject({ total: 2, rating: "3.0", reviewCount: 2 });

      const listed = await (await adminReviewsHandler(deps)(get("/api/admin/reviews?limit=100"), nextIp())).json();
      const mine = listed.data.filter((r: { businessId: string }) => r.businessId === "adm-1");
      expect(mine.map((r: { id: string }) => r.id)).toEqual([spam.id, good.id]);
      expect(mine[1]).toMatchObject({
        customerEmail: "good@example.com",
        businessName: "Business adm-1",
        businessSlug: "business-adm-1",
      });

      const review = adminReviewHandler(deps);
      // Hiding needs a reason from the fixed list; a rating is no reason.
      for (const body of [
        { hidden: true },
        { hidden: true, hiddenReason: "low-rating" },
        { hiddenReason: "duplicate" },
      ]) {
        const refused = await review(patch(`/api/admin/reviews/${spam.id}`, body), {
          ...nextIp(),
          params: { id: spam.id },
        });
        expect(refused.status, JSON.stringify(body)).toBe(400);
      }
      const hidden = await review(
        patch(`/api/admin/reviews/${spam.id}`, { hidden: true, hiddenReason: "spam-or-advertising" }),
        {
          ...nextIp(),
          params: { id: spam.id },
        },
      );
      expect(hidden.status).toBe(200);
      expect(await hidden.json()).toMatchObject({
        data: { id: spam.id, hidden: true, hiddenReason: "spam-or-advertising" },
        business: { id: "adm-1", rating: "5.0", reviewCount: 1 },
      });
      expect(deps.purges.at(-1)).toEqual(["directory", "business-adm-1"]);
      const after = await publicList();
      // The hidden review keeps its place as a placeholder with its reason; its stars leave the rating.
      expect(after).toMatchObject({ total: 2, rating: "5.0", reviewCount: 1 });
      expect(after.data.map((r: { id: string }) => r.id)).toEqual([spam.id, good.id]);
      expect(after.data[0]).toEqual({
        id: spam.id,
        hidden: true,
        hiddenReason: "spam-or-advertising",
        createdAt: expect.any(String),
        customerName: "",
        rating: 0,
        title: "",
        reviewText: "",
        serviceType: "",
        isVerified: false,
      });
      expect((await harness.store.businesses.get("adm-1"))?.rating).toBe("5.0");

      // Verified comes only from the invitation after an accepted job: the operator cannot set it.
      for (const body of [{ isVerified: true }, { hidden: false, isVerified: true }]) {
        const refused = await review(patch(`/api/admin/reviews/${good.id}`, body), nextIp());
        expect(refused.status, JSON.stringify(body)).toBe(400);
      }
      expect((await publicList()).data[1]).toMatchObject({ id: good.id, isVerified: false });

      // The admin still lists the hidden one; showing it restores list and rating.
      const again = await (await adminReviewsHandler(deps)(get("/api/admin/reviews?limit=100"), nextIp())).json();
      expect(again.data.find((r: { id: string }) => r.id === spam.id)?.hidden).toBe(true);
      await review(patch(`/api/admin/reviews/${spam.id}`, { hidden: false }), nextIp());
      expect(await publicList()).toMatchObject({ total: 2, rating: "3.0", reviewCount: 2 });

      expect(
        (await review(patch("/api/admin/reviews/rv_nope", { hidden: true, hiddenReason: "duplicate" }), nextIp()))
          .status,
      ).toBe(404);
      expect((await review(patch(`/api/admin/reviews/${good.id}`, { hidden: "yes" }), nextIp())).status).toBe(400);
      expect((await review(patch(`/api/admin/reviews/${good.id}`, { hidden: false }, {}), nextIp())).status).toBe(401);
    });
  });

  describe("outbox", () => {
    it("lists undelivered notifications (ids and types only) and reports channels", async () => {
      const id = await submitQuote({ name: "Outbox Person" });
      const res = await adminOutboxHandler(deps)(get("/api/admin/outbox"), nextIp());
      const body = await res.json();
      expect(body.channels).toEqual({ webhook: false, email: false, visitorEmail: false, sms: false });
      expect(body.total).toBeGreaterThan(0);
      const item = body.data.find((i: { leadId: string }) => i.leadId === id);
      expect(item).toMatchObject({ type: "quote", attempts: 0 });
      expect(JSON.stringify(body)).not.toContain("Outbox Person");
    });
  });
});
