// @vitest-environment happy-dom
/**
 * The operator is never in the dark (src/islands/AdminApp.tsx with admin/*): the Messages tab
 * (providers line, rows, a message opened in place with its HTML only in a sandboxed frame,
 * paging, the lead one click away), the inbox's filters and "N new" count, open emergencies
 * pinned above the list, and a lead's delivery (businesses, answers, timeline), status page and
 * messages in its dialog, against a mocked /api/admin/*.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import AdminApp from "../../../src/islands/AdminApp.tsx";
import { NOTHING_SENT, ROUTING_REASON_LABELS } from "../../../src/lib/admin-messages.ts";
import {
  ADMIN_TOKEN_STORAGE_KEY,
  type AdminChannels,
  type AdminLeadReply,
  type AdminLeadsReply,
  type AdminMessagesReply,
} from "../../../src/lib/admin.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { mockFetch, reply, type FetchMock, type Reply } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const id = (n: number) => `ld_${String(n).padStart(19, "0")}`;
const NO_PROVIDERS: AdminChannels = { webhook: false, email: false, visitorEmail: false, sms: false };
const COUNTS = { all: 3, quote: 1, audit: 0, assessment: 0, "find-pros": 0, booking: 2 };

function booking(n: number, fields: Partial<Lead> = {}): Lead {
  return {
    id: id(n),
    type: "booking",
    createdAt: "2026-03-01T12:00:00.000Z",
    sourcePage: "/directory/cedar-crew",
    reference: `TL-000${n}-AB`,
    urgency: "routine",
    status: "new",
    data: {
      customerName: `Casey ${n}`,
      customerEmail: `casey${n}@example.com`,
      customerPhone: "(512) 555-0123",
      serviceType: "Tree Trimming",
      propertyAddress: "42 Pecan Lane",
      description: "Two oaks",
      businessId: "biz-1",
    },
    ...fields,
  };
}

function message(n: number, fields: Partial<Message> = {}): Message {
  return {
    id: `${id(1)}~ev${n}~email`,
    leadId: id(1),
    reference: "TL-0001-AB",
    kind: "offer",
    audience: "business",
    channel: "email",
    to: "crew@example.com",
    toName: "Cedar Crew",
    subject: `New job ${n}: tree trimming`,
    text: `Hello Cedar Crew,\nA customer needs you (${n}).`,
    html: `<p id="from-the-email-${n}">Hello <b>Cedar Crew</b></p><script>parent.__ran = true</script>`,
    state: "kept",
    note: "Not sent: no e-mail provider configured (RESEND_API_KEY).",
    createdAt: `2026-03-01T12:0${n % 10}:00.000Z`,
    attempts: 0,
    ...fields,
  };
}

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
  history.replaceState(null, "", "/admin");
});

const authorized =
  (answer: Reply): Reply =>
  (call) =>
    call.headers.get("authorization") === `Bearer ${TOKEN}` ? answer(call) : reply.json(401, { error: "no" })(call);

function server({
  leads = [booking(2), booking(3)],
  pinned = [] as Lead[],
  needsYou = 2,
  channels = NO_PROVIDERS,
  messages = [] as Message[],
} = {}) {
  api.on("GET", "/api/admin/outbox", authorized(reply.json(200, { data: [], total: 0, channels })));
  const leadsReply = (data: Lead[]): AdminLeadsReply => ({
    data,
    nextCursor: null,
    counts: COUNTS,
    statusCounts: { new: 1, offered: 1, accepted: 0, escalated: needsYou - 1, closed: 0 },
    needsYou,
    emergencies: pinned,
  });
  api.on("GET", "/api/admin/leads", authorized(reply.json(200, leadsReply(leads))));
  api.on(
    "GET",
    "/api/admin/messages",
    authorized((call) => {
      const offset = Number(call.url.searchParams.get("offset") ?? 0);
      const limit = Number(call.url.searchParams.get("limit") ?? 25);
      const body: AdminMessagesReply = { data: messages.slice(offset, offset + limit), total: messages.length };
      return reply.json(200, body)(call);
    }),
  );
  return { leadsReply };
}

async function open(tab?: string) {
  sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
  render(<AdminApp />);
  await screen.findByRole("tablist");
  if (tab) await user.click(screen.getByRole("tab", { name: new RegExp(`^${tab}`) }));
}

describe("admin: the Messages tab", () => {
  it("says nothing is sent on a default install and lists what was kept: when, to whom, how, what, state and why", async () => {
    server({ messages: [message(2), message(1, { channel: "sms", to: "+15125550111", html: undefined })] });
    await open("Messages");
    expect((await screen.findByTestId("providers")).textContent).toBe(NOTHING_SENT);
    const list = await screen.findByRole("list", { name: "Messages, newest first" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!).getByRole("button", { expanded: false });
    expect(first.textContent).toContain("Business: Cedar Crew <crew@example.com>");
    expect(first.textContent).toContain("E-mail · Offer");
    expect(first.textContent).toContain("New job 2: tree trimming");
    expect(first.textContent).toContain("Kept (not sent)");
    expect(rows[0]!.textContent).toContain("Not sent: no e-mail provider configured (RESEND_API_KEY).");
    expect(rows[1]!.textContent).toContain("Business: Cedar Crew <+15125550111>");
    expect(rows[1]!.textContent).toContain("SMS · Offer");
    expect(screen.getByText("Messages 1–2 of 2, newest first")).toBeTruthy();
    expect(Object.fromEntries(api.to("/api/admin/messages")[0]!.url.searchParams)).toEqual({
      offset: "0",
      limit: "25",
    });
  });

  it("opens a message in place: its text as text, its HTML only inside a sandboxed frame", async () => {
    server({ messages: [message(2)] });
    await open("Messages");
    const list = await screen.findByRole("list", { name: "Messages, newest first" });
    const toggle = within(list).getByRole("button", { expanded: false });
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const panel = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(panel.hidden).toBe(false);
    expect(within(panel).getByTestId("message-text").textContent).toBe("Hello Cedar Crew,\nA customer needs you (2).");
    const frame = within(panel).getByTitle("E-mail: New job 2: tree trimming") as HTMLIFrameElement;
    expect(frame.tagName).toBe("IFRAME");
    // No scripts, no same origin, no forms: only its links may open, in a new tab.
    expect(frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
    expect(frame.getAttribute("srcdoc")).toBe(`<base target="_blank">${message(2).html}`);
    // Nothing of the e-mail's markup is part of the admin's own page.
    expect(document.getElementById("from-the-email-2")).toBeNull();
    expect(document.querySelector("body script, body b")).toBeNull();
    expect((window as unknown as { __ran?: boolean }).__ran).toBeUndefined();
    expect(panel.textContent).toContain("crew@example.com");

    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(panel.hidden).toBe(true);
  });

  it("the site's own links in a message's text are links; an address a visitor typed stays text", async () => {
    const own = `${location.origin}/respond/ld_0mwxxarwz03o87sx46n.biz-1.abc.sig`;
    server({ messages: [{ ...message(3), text: `Answer here: ${own}\nTheir site: https://evil.example/x` }] });
    await open("Messages");
    const list = await screen.findByRole("list", { name: "Messages, newest first" });
    await user.click(within(list).getByRole("button", { expanded: false }));
    const text = within(list).getByTestId("message-text");
    const links = within(text).getAllByRole("link");
    expect(links.map((a) => a.getAttribute("href"))).toEqual([own]);
    expect(links[0]!.getAttribute("target")).toBe("_blank");
    expect(text.textContent).toContain("https://evil.example/x");
  });

  it("shows the webhook's JSON as text, and an operator message kept for this admin only", async () => {
    server({
      messages: [
        message(3, {
          audience: "operator",
          channel: "webhook",
          to: "webhook",
          toName: undefined,
          html: undefined,
          kind: "new-lead",
          state: "sent",
          note: undefined,
          payload: JSON.stringify({ text: "<b>New lead</b>" }),
          sentAt: "2026-03-01T12:04:00.000Z",
          attempts: 1,
        }),
        message(2, {
          audience: "operator",
          channel: "admin",
          to: "operator",
          toName: undefined,
          kind: "escalated",
          note: "Not sent: no operator channel configured.",
        }),
      ],
    });
    await open("Messages");
    const list = await screen.findByRole("list", { name: "Messages, newest first" });
    const [hook, kept] = within(list).getAllByRole("listitem");
    expect(hook!.textContent).toContain("Operator");
    expect(hook!.textContent).toContain("Webhook · New lead alert");
    expect(hook!.textContent).toContain("Sent");
    await user.click(within(hook!).getAllByRole("button")[0]!);
    expect(within(hook!).getByText(/"text": "<b>New lead<\/b>"/)).toBeTruthy();
    expect(hook!.querySelector("b")).toBeNull();
    expect(kept!.textContent).toContain("Admin only · Needs the operator");
    await user.click(within(kept!).getAllByRole("button")[0]!);
    expect(kept!.textContent).toContain("This admin only");
  });

  it("names the providers that send and what is only kept", async () => {
    server({ channels: { webhook: true, email: true, visitorEmail: true, sms: false }, messages: [message(1)] });
    await open("Messages");
    expect((await screen.findByTestId("providers")).textContent).toBe(
      "Sending by e-mail, webhook. No SMS (TWILIO_*) provider: those messages are kept here.",
    );
  });

  it("pages older and newer, and opens the lead a message is about", async () => {
    const many = Array.from({ length: 30 }, (_, i) => message(i, { id: `${id(1)}~ev${i}~email` }));
    server({ messages: many });
    api.on(
      "GET",
      `/api/admin/leads/${id(1)}`,
      authorized(reply.json(200, { data: booking(1), outbox: null, messages: [] })),
    );
    await open("Messages");
    expect(await screen.findByText("Messages 1–25 of 30, newest first")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Older" }));
    expect(await screen.findByText("Messages 26–30 of 30, newest first")).toBeTruthy();
    expect(api.to("/api/admin/messages").at(-1)!.url.searchParams.get("offset")).toBe("25");
    expect(screen.queryByRole("button", { name: "Older" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Newer" }));
    expect(await screen.findByText("Messages 1–25 of 30, newest first")).toBeTruthy();

    await user.click(screen.getAllByRole("button", { name: "Open lead TL-0001-AB" })[0]!);
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByRole("heading", { name: "Casey 1" })).toBeTruthy();
  });

  it("an empty log says what will appear; a failure is shown", async () => {
    server();
    await open("Messages");
    expect(await screen.findByText(/^No messages yet\./)).toBeTruthy();
    api.on("GET", "/api/admin/messages", authorized(reply.json(503, { error: "Service unavailable" })));
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Service unavailable");
  });
});

describe("admin: filters, what needs the operator and open emergencies", () => {
  it("filters by type, status and urgency; no match says so", async () => {
    const { leadsReply } = server();
    await open();
    await screen.findByRole("list", { name: "Leads, newest first" });
    expect(screen.getByRole("tab", { name: /^Leads/ }).textContent).toBe("Leads2 need you");
    expect(
      within(screen.getByLabelText("Type"))
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([
      "All types (3)",
      "Quotes (1)",
      "Audits (0)",
      "Assessments (0)",
      "Find-pros requests (0)",
      "Bookings (2)",
    ]);
    // Each status with its count, in the order a lead moves.
    expect(
      within(screen.getByLabelText("Status"))
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Any status", "New (1)", "Offered (1)", "Accepted (0)", "Escalated (1)", "Closed (0)"]);
    api.on("GET", "/api/admin/leads", authorized(reply.json(200, leadsReply([]))));
    await user.selectOptions(screen.getByLabelText("Type"), "booking");
    await user.selectOptions(screen.getByLabelText("Status"), "escalated");
    await user.selectOptions(screen.getByLabelText("Urgency"), "emergency");
    await waitFor(() =>
      expect(Object.fromEntries(api.to("/api/admin/leads").at(-1)!.url.searchParams)).toEqual({
        type: "booking",
        status: "escalated",
        urgency: "emergency",
        limit: "25",
      }),
    );
    expect(await screen.findByText("No leads match.")).toBeTruthy();
    // The filters outlive a visit to another tab.
    await user.click(screen.getByRole("tab", { name: /^Messages/ }));
    await user.click(screen.getByRole("tab", { name: /^Leads/ }));
    expect((await screen.findByLabelText<HTMLSelectElement>("Status")).value).toBe("escalated");
    await user.selectOptions(screen.getByLabelText("Status"), "");
    await waitFor(() => expect(api.to("/api/admin/leads").at(-1)!.url.searchParams.has("status")).toBe(false));
  });

  it("pins open emergencies above the list with a red Emergency badge; closing one unpins it and lowers the count", async () => {
    const hot = booking(7, { urgency: "emergency", status: "escalated" });
    server({ leads: [hot, booking(2)], pinned: [hot], needsYou: 2 });
    api.on("GET", `/api/admin/leads/${hot.id}`, authorized(reply.json(200, { data: hot, outbox: null, messages: [] })));
    await open();
    const block = await screen.findByRole("list", { name: "Open emergencies, newest first" });
    expect(screen.getByRole("heading", { name: "Open emergencies (1)" })).toBeTruthy();
    const pinnedRow = within(block).getByRole("button");
    expect(within(pinnedRow).getByText("Emergency").className).toContain("bg-red-700");
    // Above the list in the page, and flagged in the list too.
    const list = screen.getByRole("list", { name: "Leads, newest first" });
    expect(block.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const rows = within(list).getAllByRole("button");
    expect(within(rows[0]!).getByText("Emergency")).toBeTruthy();
    expect(within(rows[1]!).queryByText("Emergency")).toBeNull();

    await user.click(pinnedRow);
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByRole("heading", { name: "Casey 7" });
    api.on("PATCH", `/api/admin/leads/${hot.id}`, authorized(reply.json(200, { data: { ...hot, status: "closed" } })));
    await user.click(within(dialog).getByRole("checkbox", { name: "Closed" }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await within(dialog).findByRole("status")).textContent).toBe("Saved");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByTestId("open-emergencies")).toBeNull();
    expect(screen.getByRole("tab", { name: /^Leads/ }).textContent).toBe("Leads1 needs you");
  });
});

describe("admin: a lead's delivery, status page and messages", () => {
  const routed: Lead = booking(1, {
    urgency: "urgent",
    status: "accepted",
    timeZone: "America/New_York",
    routing: {
      deliveries: [
        {
          businessId: "biz-1",
          name: "Cedar Crew",
          slug: "cedar-crew",
          email: "crew@example.com",
          phone: "+15125550111",
          distanceMiles: 3.2,
          offeredAt: "2026-03-01T12:00:00.000Z",
          deadlineAt: "2026-03-01T14:00:00.000Z",
          state: "accepted",
          answeredAt: "2026-03-01T12:30:00.000Z",
          calledAt: "2026-03-01T12:31:00.000Z",
          window: "Tomorrow 8-10am",
          price: "$400",
        },
        {
          businessId: "biz-2",
          name: "Oak Bros",
          slug: "oak-bros",
          offeredAt: "2026-03-01T12:00:00.000Z",
          deadlineAt: "2026-03-01T14:00:00.000Z",
          state: "declined",
          answeredAt: "2026-03-01T12:10:00.000Z",
          reason: "too-far",
        },
      ],
      events: [
        { at: "2026-03-01T12:00:00.000Z", kind: "offered", businessId: "biz-1" },
        { at: "2026-03-01T12:00:00.000Z", kind: "offered", businessId: "biz-2" },
        { at: "2026-03-01T12:10:00.000Z", kind: "declined", businessId: "biz-2" },
        { at: "2026-03-01T12:30:00.000Z", kind: "accepted", businessId: "biz-1" },
        { at: "2026-03-01T12:31:00.000Z", kind: "called", businessId: "biz-1" },
      ],
    },
  });

  async function openLead(detail: AdminLeadReply) {
    server({ leads: [detail.data] });
    api.on("GET", `/api/admin/leads/${detail.data.id}`, authorized(reply.json(200, detail)));
    await open();
    const list = await screen.findByRole("list", { name: "Leads, newest first" });
    await user.click(within(list).getByRole("button"));
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByRole("heading", { name: "Casey 1" });
    return dialog;
  }

  it("shows reference, urgency, every business's answer, the timeline, the status page and the lead's messages", async () => {
    const statusUrl = `/requests/${routed.id}/abcdefghijklmnopqrstuv`;
    const dialog = await openLead({
      data: routed,
      outbox: null,
      messages: [message(1, { kind: "receipt", audience: "visitor", toName: "Casey 1", to: "casey1@example.com" })],
      statusUrl,
    });
    // Every time is the job's own, with its zone's name (12:00 UTC is 7:00 AM in New York in March).
    expect(dialog.textContent).toContain("Booking request TL-0001-AB received Mar 1, 2026, 7:00 AM EST");
    expect(within(dialog).getByTestId("lead-status").textContent).toContain("Accepted");
    expect(within(dialog).getByText("Urgent").className).toContain("badge");
    expect(within(dialog).getByText("Reference").nextElementSibling!.textContent).toBe("TL-0001-AB");

    const deliveries = within(dialog).getByRole("list", { name: "Businesses offered the lead" });
    const [cedar, oak] = within(deliveries).getAllByRole("listitem");
    expect(within(cedar!).getByRole("link", { name: "Cedar Crew" }).getAttribute("href")).toBe("/directory/cedar-crew");
    expect(cedar!.textContent).toContain("Accepted");
    expect(cedar!.textContent).toContain("3.2 mi");
    expect(within(cedar!).getByText("Window").nextElementSibling!.textContent).toBe("Tomorrow 8-10am");
    expect(within(cedar!).getByText("Price").nextElementSibling!.textContent).toBe("$400");
    expect(within(cedar!).getByText("Called the customer")).toBeTruthy();
    expect(within(cedar!).getByText("Deadline").nextElementSibling!.textContent).toBe("Mar 1, 2026, 9:00 AM EST");
    expect(within(cedar!).getByText("Answered")).toBeTruthy();
    expect(within(cedar!).getByText("Reached at").nextElementSibling!.textContent).toBe(
      "crew@example.com · +15125550111",
    );
    expect(oak!.textContent).toContain("Declined");
    expect(within(oak!).getByText("Reason").nextElementSibling!.textContent).toBe("Outside my service area");
    expect(within(oak!).getByText("Reached at").nextElementSibling!.textContent).toBe("No e-mail or phone on file");

    const timeline = within(dialog).getByRole("list", { name: "Timeline, oldest first" });
    expect(
      within(timeline)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(
      [
        "7:00 AM EST Offered: Cedar Crew",
        "7:00 AM EST Offered: Oak Bros",
        "7:10 AM EST Declined: Oak Bros",
        "7:30 AM EST Accepted: Cedar Crew",
        "7:31 AM EST Called the customer: Cedar Crew",
      ].map((line) => `Mar 1, 2026, ${line}`),
    );

    const link = within(dialog).getByRole("link", { name: "The visitor's status page" });
    expect(link.getAttribute("href")).toBe(statusUrl);
    expect(link.getAttribute("target")).toBe("_blank");
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    await user.click(within(dialog).getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(`${location.origin}${statusUrl}`);
    expect(within(dialog).getByRole("button", { name: "Link copied" })).toBeTruthy();

    expect(within(dialog).getByRole("heading", { name: "Messages (1)" })).toBeTruthy();
    const messages = within(dialog).getByRole("list", { name: "Messages about this lead, oldest first" });
    const row = within(messages).getByRole("listitem");
    expect(row.textContent).toContain("Visitor: Casey 1 <casey1@example.com>");
    expect(row.textContent).toContain("E-mail · Receipt");
    expect(row.textContent).toContain("Kept (not sent)");
    expect(row.textContent).toContain("Mar 1, 2026, 7:01 AM EST");
    expect(within(row).queryByRole("button", { name: /Open lead/ })).toBeNull();
    await user.click(within(row).getByRole("button"));
    expect(within(row).getByTestId("message-text").textContent).toContain("A customer needs you (1).");
  });

  it("a lead stored before delivery existed: routine, no routing, no status link, no messages", async () => {
    const { reference: _r, urgency: _u, ...old } = booking(1);
    const dialog = await openLead({ data: old, outbox: null, messages: [] });
    expect(within(dialog).getByText("Routine")).toBeTruthy();
    expect(within(dialog).queryByRole("list", { name: "Businesses offered the lead" })).toBeNull();
    expect(within(dialog).queryByRole("link", { name: "The visitor's status page" })).toBeNull();
    expect(within(dialog).getByText("No messages about this lead yet.")).toBeTruthy();
  });

  it("a lead passed to the operator says so", async () => {
    const escalated = booking(1, {
      routing: {
        deliveries: [],
        events: [{ at: "2026-03-01T12:00:00.000Z", kind: "escalated", reason: "no-pros" }],
        escalatedAt: "2026-03-01T12:00:00.000Z",
      },
    });
    const dialog = await openLead({ data: escalated, outbox: null, messages: [] });
    expect(dialog.textContent).toMatch(/Passed to the operator .*: a person needs to take it\./);
    expect(within(dialog).getByText("Not offered to any business.")).toBeTruthy();
    const timeline = within(dialog).getByRole("list", { name: "Timeline, oldest first" });
    expect(timeline.textContent).toContain(`Passed to the operator (${ROUTING_REASON_LABELS["no-pros"]})`);
  });
});
