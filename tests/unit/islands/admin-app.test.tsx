// @vitest-environment happy-dom
/**
 * The operator's inbox (src/islands/AdminApp.tsx with admin/*): sign-in and every answer of
 * its token check, the lead list (search, paging, CSV), the lead dialog (Radix), review
 * moderation and the notification outbox, against a mocked /api/admin/*. Filters, pinned
 * emergencies, messages and lead delivery: admin-messages.test.tsx.
 */
import { HIDE_REASONS } from "../../../src/lib/schemas/review.ts";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import AdminApp from "../../../src/islands/AdminApp.tsx";
import {
  ADMIN_DISABLED,
  ADMIN_RATE_LIMITED,
  ADMIN_TOKEN_STORAGE_KEY,
  ADMIN_UNAUTHORIZED,
  LEAD_STATUS_LABELS,
  LEAD_TYPE_SINGULAR,
  OUTBOX_TYPE_LABELS,
  type AdminReview,
} from "../../../src/lib/admin.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import type { OutboxItem } from "../../../src/lib/schemas/outbox.ts";
import { mockFetch, reply, type FetchMock, type Reply } from "../../helpers/fetch-mock.ts";
import { SAMPLE_LISTING } from "../../../src/lib/sample.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const UNREACHABLE = "The server could not be reached. Check the connection and try again.";
const id = (n: number) => `ld_${String(n).padStart(19, "0")}`;

function quote(n: number, fields: Partial<Lead> = {}): Lead {
  return {
    id: id(n),
    type: "quote",
    createdAt: "2026-03-01T12:00:00.000Z",
    sourcePage: "/services/tree-removal",
    status: "new",
    data: {
      name: `Jordan ${n}`,
      email: `jordan${n}@example.com`,
      phone: "(512) 555-0199",
      address: "12 Oak Lane",
      serviceType: "tree-removal",
      urgency: "within-week",
      estimatedCost: "$550 - $2,750",
      treeDetails: { height: "40 ft" },
    },
    ...fields,
  };
}

const COUNTS = { all: 3, quote: 2, audit: 1, assessment: 0, "find-pros": 0, booking: 0 };
const leadsReply = (data: Lead[], over: Record<string, unknown> = {}) => ({
  data,
  nextCursor: null,
  counts: COUNTS,
  statusCounts: { new: 2, offered: 0, accepted: 0, escalated: 0, closed: 0 },
  needsYou: 2,
  emergencies: [],
  ...over,
});
const outboxItem = (n: number): OutboxItem => ({
  leadId: id(n),
  type: "quote",
  createdAt: "2026-03-01T12:00:00.000Z",
  attempts: 2,
  nextAttemptAt: "2026-03-01T12:10:00.000Z",
  lastError: "webhook 500",
  delivered: [],
});
const OUTBOX = { data: [outboxItem(1)], total: 1, channels: { webhook: true, email: false } };

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
  history.replaceState(null, "", "/admin");
});

/** The server as the operator's token sees it: the outbox check passes for TOKEN only. */
function signedInApi({ leads = [quote(1), quote(2)], outbox = OUTBOX } = {}) {
  const authorized =
    (answer: Reply): Reply =>
    (call) =>
      call.headers.get("authorization") === `Bearer ${TOKEN}`
        ? answer(call)
        : reply.json(401, { error: ADMIN_UNAUTHORIZED }, { "www-authenticate": "Bearer" })(call);
  api.on("GET", "/api/admin/outbox", authorized(reply.json(200, outbox)));
  api.on("GET", "/api/admin/leads", authorized(reply.json(200, leadsReply(leads))));
  return authorized;
}

async function signIn(token = TOKEN) {
  await user.type(await screen.findByLabelText("Operator token"), token);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
}

const quotes = () => screen.getByRole("list", { name: "Leads, newest first" });

describe("admin: signing in", () => {
  it("starts with a status while the token is checked, then asks for one (no error for no token)", async () => {
    signedInApi();
    const release = api.hold();
    render(<AdminApp />);
    expect(screen.getByRole("status").textContent).toBe("Loading...");
    await act(async () => release());
    expect(await screen.findByLabelText("Operator token")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(api.calls[0]!.headers.has("authorization")).toBe(false);
  });

  it("a wrong token is refused, nothing is shown and nothing is kept", async () => {
    signedInApi();
    render(<AdminApp />);
    const release = api.hold();
    await signIn("definitely-not-the-token");
    expect((screen.getByRole("button", { name: "Signing in..." }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect((await screen.findByRole("alert")).textContent).toBe("That token was not accepted.");
    expect(screen.getByLabelText("Operator token").getAttribute("aria-invalid")).toBe("true");
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it.each([
    [
      "a lockout (429 with Retry-After)",
      reply.json(429, { error: ADMIN_RATE_LIMITED }, { "retry-after": "900" }),
      ADMIN_RATE_LIMITED,
    ],
    ["a store outage (503)", reply.json(503, { error: "Service unavailable" }), "Service unavailable"],
    ["a network failure", reply.networkError(), UNREACHABLE],
    ["an aborted request", reply.aborted(), UNREACHABLE],
    ["a 500 that is not JSON", reply.malformed(500), "500:"],
  ])("%s at sign-in is said at the form", async (_, answer, message) => {
    api.on("GET", "/api/admin/outbox", reply.json(401, { error: ADMIN_UNAUTHORIZED }));
    render(<AdminApp />);
    await screen.findByLabelText("Operator token");
    api.on("GET", "/api/admin/outbox", answer);
    await signIn();
    expect((await screen.findByRole("alert")).textContent).toContain(message);
    expect(screen.queryByRole("tablist")).toBeNull();
  });

  it("with no ADMIN_TOKEN on the site the page says so and offers no sign-in", async () => {
    api.on("GET", "/api/admin/outbox", reply.json(503, { error: ADMIN_DISABLED, disabled: true }));
    render(<AdminApp />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      `${ADMIN_DISABLED}. The operator area stays off until the site has an ADMIN_TOKEN.`,
    );
    expect(screen.queryByLabelText("Operator token")).toBeNull();
  });

  it("the right token opens the inbox, is kept for the tab and sent as a bearer header; Sign out forgets it", async () => {
    signedInApi();
    render(<AdminApp />);
    await signIn();
    const tabs = await screen.findByRole("tablist", { name: "Inbox sections" });
    expect(sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY)).toBe(TOKEN);
    expect(
      within(tabs)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual([
      "Leads2 need you",
      "Messages",
      "Reports",
      "Reviews",
      "Claims",
      "Credentials",
      "Notifications1",
      "Changes",
      "Storms",
      "Import",
      "Setup",
      "Storm board",
    ]);
    // The heading names the section open, and so does the browser tab.
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Leads inbox");
    expect(document.title).toBe("Leads inbox | Treeline");
    await user.click(within(tabs).getByRole("tab", { name: "Reviews" }));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Review moderation");
    expect(document.title).toBe("Review moderation | Treeline");
    await user.click(within(tabs).getByRole("tab", { name: /^Leads/ }));
    await waitFor(() => expect(within(quotes()).getAllByRole("listitem")).toHaveLength(2));
    expect(api.to("/api/admin/leads")[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(Object.fromEntries(api.to("/api/admin/leads")[0]!.url.searchParams)).toEqual({ limit: "25" });

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect(screen.getByLabelText("Operator token")).toBeTruthy();
    expect(sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it("a token kept from earlier in the tab opens the inbox without asking; a stale one is dropped", async () => {
    signedInApi();
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    const { unmount } = render(<AdminApp />);
    expect(await screen.findByRole("tablist")).toBeTruthy();
    unmount();

    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, "stale-token-from-before");
    render(<AdminApp />);
    expect((await screen.findByRole("alert")).textContent).toBe("That token was not accepted.");
    expect(sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe("admin: lead lists", () => {
  async function inbox() {
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    render(<AdminApp />);
    await screen.findByRole("tablist");
  }

  it("rows say who, how to reach them, what they want, the status and our estimate", async () => {
    signedInApi();
    await inbox();
    const rows = await within(await waitFor(quotes)).findAllByRole("button");
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain("Jordan 1");
    expect(rows[0]!.textContent).toContain("(512) 555-0199 · jordan1@example.com");
    expect(rows[0]!.textContent).toContain("$550 - $2,750");
    expect(rows[0]!.textContent).toContain(LEAD_STATUS_LABELS.new);
  });

  it.each([
    ["a 500", reply.json(500, { error: "The store is unavailable" }), "The store is unavailable"],
    ["a network failure", reply.networkError(), UNREACHABLE],
  ])("%s is shown above the list", async (_, answer, message) => {
    const authorized = signedInApi();
    api.on("GET", "/api/admin/leads", authorized(answer));
    await inbox();
    expect((await screen.findByRole("alert")).textContent).toBe(message);
    expect(screen.queryByText(/No quotes yet/)).toBeNull();
  });

  it.each([
    ["401", reply.json(401, { error: ADMIN_UNAUTHORIZED })],
    ["429", reply.json(429, { error: ADMIN_RATE_LIMITED }, { "retry-after": "60" })],
  ])("a %s while signed in signs out and asks again", async (_, answer) => {
    signedInApi();
    api.on("GET", "/api/admin/leads", answer);
    await inbox();
    expect((await screen.findByRole("alert")).textContent).toBe("Please sign in again.");
    expect(sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY)).toBeNull();
    expect(screen.queryByRole("tablist")).toBeNull();
  });

  it("an empty inbox says so", async () => {
    signedInApi({ leads: [] });
    await inbox();
    expect(await screen.findByText("No leads yet.")).toBeTruthy();
  });

  it("search sends q, says what it shows, and Clear search goes back", async () => {
    const authorized = signedInApi();
    await inbox();
    await waitFor(() => expect(within(quotes()).getAllByRole("listitem")).toHaveLength(2));
    api.on(
      "GET",
      "/api/admin/leads",
      authorized((call) =>
        reply.json(200, leadsReply(call.url.searchParams.get("q") ? [] : [quote(1), quote(2)]))(call),
      ),
    );
    await user.type(screen.getByRole("searchbox", { name: /Search leads/ }), " nobody {Enter}");
    expect(await screen.findByText("No leads match.")).toBeTruthy();
    expect(api.to("/api/admin/leads").at(-1)!.url.searchParams.get("q")).toBe("nobody");
    expect(screen.getByText("nobody", { selector: "q" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Clear search" }));
    await waitFor(() => expect(within(quotes()).getAllByRole("listitem")).toHaveLength(2));
  });

  it("a search that has not reached the oldest leads says how many it looked at and offers to go on", async () => {
    const authorized = signedInApi();
    await inbox();
    api.on(
      "GET",
      "/api/admin/leads",
      authorized((call) =>
        reply.json(
          200,
          leadsReply(call.url.searchParams.get("cursor") ? [quote(9)] : [], {
            nextCursor: call.url.searchParams.get("cursor") ? null : id(5000),
            scanned: 5000,
          }),
        )(call),
      ),
    );
    await user.type(screen.getByRole("searchbox", { name: /Search leads/ }), "Jordan 9{Enter}");
    expect(await screen.findByText("No matches among the 5000 newest leads yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Search older leads" }));
    await waitFor(() => expect(within(quotes()).getAllByRole("listitem")).toHaveLength(1));
    expect(api.to("/api/admin/leads").at(-1)!.url.searchParams.get("cursor")).toBe(id(5000));
    expect(screen.queryByRole("button", { name: "Search older leads" })).toBeNull();
  });

  it("Load more appends the next page, with a loading status meanwhile", async () => {
    const authorized = signedInApi();
    api.on(
      "GET",
      "/api/admin/leads",
      authorized((call) =>
        reply.json(
          200,
          leadsReply(call.url.searchParams.get("cursor") ? [quote(3)] : [quote(1), quote(2)], {
            nextCursor: call.url.searchParams.get("cursor") ? null : id(2),
          }),
        )(call),
      ),
    );
    await inbox();
    const more = await screen.findByRole("button", { name: "Load more" });
    const release = api.hold();
    await user.click(more);
    expect(screen.getByRole("status").textContent).toBe("Loading...");
    expect((more as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    await waitFor(() => expect(within(quotes()).getAllByRole("listitem")).toHaveLength(3));
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("Export CSV downloads what the filters select under the server's name; a failure is shown", async () => {
    const authorized = signedInApi();
    api.on(
      "GET",
      "/api/admin/leads.csv",
      authorized(
        reply.text(200, "id,name\n", {
          "content-type": "text/csv",
          "content-disposition": 'attachment; filename="quotes-2026.csv"',
        }),
      ),
    );
    const downloads: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:test");
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.href}`);
    });
    await inbox();
    await user.selectOptions(screen.getByLabelText("Type"), "quote");
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads).toEqual(["quotes-2026.csv blob:test"]));
    const call = api.to("/api/admin/leads.csv")[0]!;
    expect(call.headers.get("accept")).toBe("text/csv");
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ type: "quote" });

    api.on("GET", "/api/admin/leads.csv", authorized(reply.json(503, { error: "Export unavailable" })));
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Export unavailable");
  });

  it("Refresh and coming back to the tab read the lists again", async () => {
    signedInApi();
    await inbox();
    await waitFor(() => expect(api.to("/api/admin/leads")).toHaveLength(1));
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(api.to("/api/admin/leads")).toHaveLength(2));
    // A focus within 2 s of the last read is ignored; one later reads again.
    window.dispatchEvent(new Event("focus"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.to("/api/admin/leads")).toHaveLength(2);
    const later = Date.now() + 5_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    window.dispatchEvent(new Event("focus"));
    await waitFor(() => expect(api.to("/api/admin/leads")).toHaveLength(3));
  });
});

describe("admin: the lead dialog", () => {
  const detail = (lead: Lead, outbox: OutboxItem | null = null) => reply.json(200, { data: lead, outbox });

  async function openFirst(lead: Lead, outbox: OutboxItem | null = null) {
    const authorized = signedInApi({ leads: [lead] });
    api.on("GET", /^\/api\/admin\/leads\/ld_/, authorized(detail(lead, outbox)));
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    render(<AdminApp />);
    const row = await within(await waitFor(quotes)).findByRole("button");
    await user.click(row);
    return { row, authorized, dialog: await screen.findByRole("dialog") };
  }

  it("shows every field by its label, the undelivered notification, and closes the lead with a note", async () => {
    const lead = quote(1);
    const { dialog, authorized, row } = await openFirst(lead, outboxItem(1));
    await within(dialog).findByRole("heading", { name: "Jordan 1" });
    expect(dialog.textContent).toContain(`${LEAD_TYPE_SINGULAR.quote} received`);
    expect(within(dialog).getByTestId("lead-outbox").textContent).toMatch(
      /^Notification not delivered yet \(2 attempts, last error: webhook 500\); next attempt /,
    );
    const terms = within(dialog)
      .getAllByRole("term")
      .map((t) => t.textContent);
    expect(terms).toEqual(
      expect.arrayContaining(["Name", "Service type", "Tree details / height", "Source page", "Lead ID"]),
    );
    // A choice is shown by its label, not its value.
    const service = within(dialog).getByText("Service type");
    expect(service.nextElementSibling!.textContent).toBe("Tree Removal");
    expect(within(dialog).getByText("Urgency").nextElementSibling!.textContent).toBe("Within a week");
    expect(within(dialog).getByRole("link", { name: "(512) 555-0199" }).getAttribute("href")).toBe("tel:+15125550199");

    // The status follows the offers; the operator only closes (and reopens) it.
    expect(within(dialog).getByTestId("lead-status").textContent).toContain(LEAD_STATUS_LABELS.new);
    expect(within(dialog).queryByRole("combobox", { name: "Status" })).toBeNull();
    const saved: Lead = {
      ...lead,
      status: "closed",
      note: "Called, sending crew",
      history: [{ at: "2026-03-02T10:00:00.000Z", from: "new", to: "closed", note: "Called, sending crew" }],
    };
    api.on("PATCH", `/api/admin/leads/${lead.id}`, authorized(reply.json(200, { data: saved })));
    await user.click(within(dialog).getByRole("checkbox", { name: "Closed" }));
    await user.type(within(dialog).getByLabelText("Note"), "Called, sending crew");
    const release = api.hold();
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((within(dialog).getByRole("button", { name: "Saving..." }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect((await within(dialog).findByRole("status")).textContent).toBe("Saved");
    expect(api.to(`/api/admin/leads/${lead.id}`, "PATCH")[0]!.json()).toEqual({
      closed: true,
      note: "Called, sending crew",
    });
    expect(within(dialog).getByRole("heading", { name: "History" })).toBeTruthy();
    expect(dialog.textContent).toContain(`${LEAD_STATUS_LABELS.new} → ${LEAD_STATUS_LABELS.closed}`);
    expect(dialog.textContent).toContain("“Called, sending crew”");
    expect(within(dialog).getByTestId("lead-status").textContent).toContain(LEAD_STATUS_LABELS.closed);
    expect((within(dialog).getByRole("checkbox", { name: "Closed" }) as HTMLInputElement).checked).toBe(true);
    // The list shows the new status without a reload, and the tab's count follows.
    expect(row.textContent).toContain(LEAD_STATUS_LABELS.closed);

    // Closing gives focus back to the row that opened it.
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(row);
    expect(screen.getByRole("tab", { name: /^Leads/ }).textContent).toBe("Leads1 needs you");
  });

  it("a failed save is shown in the dialog; a 401 signs out", async () => {
    const lead = quote(1);
    const { dialog, authorized } = await openFirst(lead);
    await within(dialog).findByRole("heading", { name: "Jordan 1" });
    api.on("PATCH", `/api/admin/leads/${lead.id}`, authorized(reply.json(400, { error: "Note is too long" })));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Note is too long");
    expect(within(dialog).queryByText("Saved")).toBeNull();

    api.on("PATCH", `/api/admin/leads/${lead.id}`, reply.json(401, { error: ADMIN_UNAUTHORIZED }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Please sign in again.");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("a lead that cannot be read says why in the dialog", async () => {
    const authorized = signedInApi();
    api.on("GET", /^\/api\/admin\/leads\/ld_/, authorized(reply.json(404, { error: "Lead not found" })));
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    history.replaceState(null, "", `/admin#lead=${id(7)}`);
    render(<AdminApp />);
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Lead not found")).toBeTruthy();
    expect(within(dialog).queryByRole("status")).toBeNull();
  });

  it("#lead=… (a notification's link) opens that lead; closing clears the fragment", async () => {
    const lead = quote(4);
    const authorized = signedInApi();
    api.on("GET", `/api/admin/leads/${lead.id}`, authorized(detail(lead)));
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    history.replaceState(null, "", `/admin?x=1#lead=${lead.id}`);
    render(<AdminApp />);
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByRole("heading", { name: "Jordan 4" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(location.hash).toBe("");
    expect(location.search).toBe("?x=1");
  });

  it("a new #lead=… while the inbox is open opens that lead", async () => {
    const lead = quote(6);
    const authorized = signedInApi();
    api.on("GET", `/api/admin/leads/${lead.id}`, authorized(detail(lead)));
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    render(<AdminApp />);
    await screen.findByRole("tablist");
    expect(screen.queryByRole("dialog")).toBeNull();
    await act(async () => {
      history.replaceState(null, "", `/admin#lead=${lead.id}`);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(await within(await screen.findByRole("dialog")).findByRole("heading", { name: "Jordan 6" })).toBeTruthy();
  });

  it("on a touch screen the dialog itself takes focus, not the first field", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: false, media: query }));
    const { dialog } = await openFirst(quote(1));
    await within(dialog).findByRole("heading", { name: "Jordan 1" });
    expect(document.activeElement).toBe(dialog);
  });

  it("a find-pros lead lists the businesses it was passed to", async () => {
    const lead: Lead = {
      ...quote(5),
      type: "find-pros",
      data: {
        name: "Sam",
        location: "Austin",
        serviceType: "Tree Removal",
        matchedBusinesses: [
          {
            id: "biz-001",
            name: "Balcones Canopy Works",
            slug: "balcones",
            rating: "4.9",
            distanceMiles: 3.24,
            phone: "(512) 555-0142",
          },
        ],
      },
    };
    const { dialog } = await openFirst(lead);
    const matched = await within(dialog).findByTestId("matched-businesses");
    expect(within(matched).getByRole("link", { name: "Balcones Canopy Works" }).getAttribute("href")).toBe(
      "/directory/balcones",
    );
    expect(matched.textContent).toContain("3.2 mi, 4.9 stars, (512) 555-0142");
  });
});

describe("admin: reviews and notifications", () => {
  const adminReview = (fields: Partial<AdminReview> = {}): AdminReview => ({
    id: "rev_1",
    customerName: "Casey",
    customerEmail: "casey@example.com",
    rating: 4,
    title: "On time",
    reviewText: "<b>Tidy</b>",
    serviceType: "",
    isVerified: false,
    createdAt: "2026-03-01T12:00:00.000Z",
    businessId: "biz-001",
    businessName: "Balcones Canopy Works",
    businessSlug: "balcones-canopy-works-austin",
    ...fields,
  });

  async function tab(name: string) {
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    render(<AdminApp />);
    await user.click(await screen.findByRole("tab", { name: new RegExp(`^${name}`) }));
  }

  it("Hide and Show change a review in place, with no Verify; the owner's reply shows; a failure is shown", async () => {
    const authorized = signedInApi();
    const ownerReply = {
      text: "Thanks, <i>Casey</i>!",
      createdAt: "2026-03-02T12:00:00.000Z",
      editedAt: "2026-03-03T12:00:00.000Z",
    };
    api.on(
      "GET",
      "/api/admin/reviews",
      authorized(
        reply.json(200, { data: [adminReview({ reply: ownerReply, businessSample: true })], nextCursor: null }),
      ),
    );
    await tab("Reviews");
    const list = await screen.findByRole("list", { name: "Reviews, newest first" });
    const item = await within(list).findByRole("listitem");
    expect(within(item).getByRole("img", { name: "4 out of 5 stars" })).toBeTruthy();
    expect(within(item).getByText("<b>Tidy</b>")).toBeTruthy();
    expect(within(item).getByRole("link", { name: "Balcones Canopy Works" }).getAttribute("href")).toBe(
      "/directory/balcones-canopy-works-austin",
    );
    // Its business is a sample (the demo directory): the operator sees so.
    expect(within(item).getByText(SAMPLE_LISTING)).toBeTruthy();

    expect(within(item).getByText("Unverified")).toBeTruthy();
    // Verified comes only from the invitation after an accepted job: nothing here sets it.
    expect(within(item).queryByRole("button", { name: /verif/i })).toBeNull();
    const ownerText = within(item).getByText("Response from Balcones Canopy Works").parentElement!;
    expect(ownerText.textContent).toContain("Thanks, <i>Casey</i>!");
    expect(ownerText.textContent).toContain("(edited)");
    expect(ownerText.querySelector("i")).toBeNull();

    api.on(
      "PATCH",
      "/api/admin/reviews/rev_1",
      authorized((call) => reply.json(200, { data: adminReview({ reply: ownerReply, ...call.json() }) })(call)),
    );

    // Hiding needs a reason from the fixed list (never the rating).
    const hide = within(item).getByRole("button", { name: "Hide" }) as HTMLButtonElement;
    expect(hide.disabled).toBe(true);
    const reason = within(item).getByRole("combobox", { name: "Reason to hide" });
    // The admin's bordered input ("field"); the "input" class it had styled nothing.
    expect(reason.className.split(" ")).toContain("field");
    expect([...reason.querySelectorAll("option")].map((o) => o.textContent).slice(1)).toEqual(
      Object.values(HIDE_REASONS),
    );
    await user.selectOptions(reason, "spam-or-advertising");
    const release = api.hold();
    await user.click(hide);
    expect((within(item).getByRole("button", { name: "Hide" }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect(await within(item).findByText("Hidden: spam or advertising")).toBeTruthy();
    expect(api.to("/api/admin/reviews/rev_1").at(-1)!.json()).toEqual({
      hidden: true,
      hiddenReason: "spam-or-advertising",
    });
    expect(within(item).getByRole("button", { name: "Show" })).toBeTruthy();

    api.on("PATCH", "/api/admin/reviews/rev_1", authorized(reply.json(500, { error: "Could not update the review" })));
    await user.click(within(item).getByRole("button", { name: "Show" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not update the review");
  });

  it("no reviews says so", async () => {
    const authorized = signedInApi();
    api.on("GET", "/api/admin/reviews", authorized(reply.json(200, { data: [], nextCursor: null })));
    await tab("Reviews");
    expect(await screen.findByText("No reviews yet.")).toBeTruthy();
  });

  it("undelivered notifications: attempts, last error, Retry now, and the lead one click away", async () => {
    const authorized = signedInApi();
    api.on("GET", `/api/admin/leads/${id(1)}`, authorized(reply.json(200, { data: quote(1), outbox: outboxItem(1) })));
    await tab("Notifications");
    const list = await screen.findByRole("list", { name: "Undelivered notifications" });
    expect(screen.getByText("1 undelivered notification")).toBeTruthy();
    expect(screen.getByText(/^Channels: webhook\./)).toBeTruthy();
    expect(within(list).getByRole("listitem").textContent).toContain("2 attempts · webhook 500 · next");

    api.on("POST", "/api/admin/outbox", authorized(reply.json(200, { retried: 1 })));
    api.on("GET", "/api/admin/outbox", authorized(reply.json(200, { ...OUTBOX, data: [], total: 0 })));
    const release = api.hold();
    await user.click(screen.getByRole("button", { name: "Retry now" }));
    expect((screen.getByRole("button", { name: "Retrying..." }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect(await screen.findByText("Every lead notification has been delivered.")).toBeTruthy();
    expect(api.to("/api/admin/outbox", "POST")[0]!.json()).toEqual({});
    // The tab's badge follows.
    expect(screen.getByRole("tab", { name: "Notifications" })).toBeTruthy();
  });

  it("opens the lead of a notification", async () => {
    const authorized = signedInApi();
    api.on("GET", `/api/admin/leads/${id(1)}`, authorized(reply.json(200, { data: quote(1), outbox: outboxItem(1) })));
    await tab("Notifications");
    const list = await screen.findByRole("list", { name: "Undelivered notifications" });
    await user.click(within(list).getByRole("button", { name: LEAD_TYPE_SINGULAR.quote }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByRole("heading", { name: "Jordan 1" })).toBeTruthy();
  });

  it("lists an owner's message that waits next to a lead's, with nothing to open", async () => {
    const owner: OutboxItem = {
      ...outboxItem(2),
      leadId: "cl_aaaaaaaaaaaaaaaaaaaa",
      type: "owner",
      attempts: 1,
      lastError: "email: Attempt 1: HTTP 500",
    };
    signedInApi({ outbox: { ...OUTBOX, data: [outboxItem(1), owner], total: 2 } });
    await tab("Notifications");
    const list = await screen.findByRole("list", { name: "Undelivered notifications" });
    expect(screen.getByText("2 undelivered notifications")).toBeTruthy();
    const [, item] = within(list).getAllByRole("listitem");
    expect(item!.textContent).toContain(`${OUTBOX_TYPE_LABELS.owner} first tried`);
    expect(item!.textContent).toContain("1 attempt · email: Attempt 1: HTTP 500 · next");
    expect(within(item!).queryByRole("button")).toBeNull();
    expect(within(list).getAllByRole("button")).toHaveLength(1);
  });

  it("with no channel set it says notifications are off and offers no retry; a failed retry is shown", async () => {
    const authorized = signedInApi({ outbox: { ...OUTBOX, channels: { webhook: false, email: false } } });
    await tab("Notifications");
    expect(await screen.findByText(/^Notifications are off/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Retry now" })).toBeNull();

    api.on("GET", "/api/admin/outbox", authorized(reply.json(200, OUTBOX)));
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    api.on("POST", "/api/admin/outbox", authorized(reply.networkError()));
    await user.click(await screen.findByRole("button", { name: "Retry now" }));
    expect((await screen.findByRole("alert")).textContent).toBe(UNREACHABLE);
  });
});
