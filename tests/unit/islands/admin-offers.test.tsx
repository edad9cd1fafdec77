// @vitest-environment happy-dom
/**
 * Routing a lead by hand from its window (src/islands/admin/LeadOffers.tsx in LeadDetail),
 * against a mocked /api/admin/*: the nearby list on request (distance, services, 24/7 and
 * open now, unreachable ones said so, the businesses already offered marked and not
 * choosable), nothing posted without a choice, an offer that updates the window, the row and
 * the tab's count, a refusal said in place, a lead with no known place, and no section for a
 * growth request. A sample business is marked "Sample listing".
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import AdminApp from "../../../src/islands/AdminApp.tsx";
import {
  ADMIN_TOKEN_STORAGE_KEY,
  type AdminLeadsReply,
  type AdminNearbyBusiness,
  type AdminNearbyReply,
  type AdminOfferReply,
} from "../../../src/lib/admin.ts";
import { SAMPLE_LISTING } from "../../../src/lib/sample.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { mockFetch, reply, type FetchMock, type Reply } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const LEAD_ID = `ld_${"7".padStart(19, "0")}`;
const AT = "2026-11-26T08:00:00.000Z";

const expired: Delivery = {
  businessId: "biz-gone",
  name: "Gone Crew",
  slug: "gone-crew",
  distanceMiles: 4,
  offeredAt: AT,
  deadlineAt: AT,
  state: "expired",
};

const lead = (fields: Partial<Lead> = {}): Lead => ({
  id: LEAD_ID,
  type: "quote",
  createdAt: AT,
  sourcePage: "/",
  reference: "TL-5F22-5D",
  urgency: "emergency",
  timeZone: "America/New_York",
  status: "escalated",
  routing: {
    deliveries: [expired],
    events: [
      { at: AT, kind: "offered", businessId: "biz-gone" },
      { at: AT, kind: "escalated", reason: "no-answer" },
    ],
    escalatedAt: AT,
  },
  data: { name: "Mia Homeowner", email: "mia@example.com", serviceType: "tree-removal", address: "1 Biscayne Blvd" },
  ...fields,
});

const business = (id: string, fields: Partial<AdminNearbyBusiness> = {}): AdminNearbyBusiness => ({
  id,
  name: `Crew ${id}`,
  slug: `crew-${id}`,
  distanceMiles: 1.2,
  rating: "4.8",
  reviewCount: 12,
  services: ["Tree Removal", "Tree Trimming"],
  offersService: true,
  emergency247: false,
  openNow: false,
  reachable: true,
  ...fields,
});

const NEARBY: AdminNearbyReply = {
  near: "Miami, FL 33131",
  service: "Tree Removal",
  routable: true,
  data: [
    business("a", { emergency247: true }),
    business("b", { distanceMiles: 3.4, openNow: true }),
    business("c", { distanceMiles: 7, reachable: false }),
    business("d", { distanceMiles: 9, services: ["Stump Grinding"], offersService: false, isSample: true }),
  ],
};

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

async function openLead(shown: Lead, nearby: AdminNearbyReply = NEARBY) {
  const leads: AdminLeadsReply = {
    data: [shown],
    nextCursor: null,
    counts: { all: 1, quote: 1, audit: 0, assessment: 0, "find-pros": 0, booking: 0 },
    statusCounts: { new: 0, offered: 0, accepted: 0, escalated: 1, closed: 0 },
    needsYou: 1,
    emergencies: [],
  };
  api.on("GET", "/api/admin/outbox", authorized(reply.json(200, { data: [], total: 0, channels: {} })));
  api.on("GET", "/api/admin/leads", authorized(reply.json(200, leads)));
  api.on(
    "GET",
    `/api/admin/leads/${LEAD_ID}`,
    authorized(reply.json(200, { data: shown, outbox: null, messages: [] })),
  );
  api.on("GET", `/api/admin/leads/${LEAD_ID}/offers`, authorized(reply.json(200, nearby)));
  sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
  render(<AdminApp />);
  const list = await screen.findByRole("list", { name: "Leads, newest first" });
  const row = await within(list).findByRole("button");
  await user.click(row);
  const dialog = await screen.findByRole("dialog");
  await within(dialog).findByRole("heading", { name: "Mia Homeowner" });
  return { dialog, row };
}

const offersPath = `/api/admin/leads/${LEAD_ID}/offers`;

describe("admin: offering a lead to nearby businesses by hand", () => {
  it("lists them on request: distance, services, 24/7 or open now, reachable; those already offered marked", async () => {
    const { dialog } = await openLead(lead());
    const section = within(dialog).getByTestId("lead-offers");
    expect(within(section).getByRole("heading", { name: "Offer to nearby businesses" })).toBeTruthy();
    // Nothing is read until asked.
    expect(api.to(offersPath)).toHaveLength(0);
    await user.click(within(section).getByRole("button", { name: "Show nearby businesses" }));
    const list = await within(section).findByRole("list", { name: "Nearby businesses" });
    expect(api.to(offersPath)[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(
      within(section).getByRole("group", { name: "Near Miami, FL 33131, for Tree Removal, nearest first" }),
    ).toBeTruthy();

    const gone = within(list).getByRole("checkbox", { name: "Gone Crew" }) as HTMLInputElement;
    expect(gone.disabled).toBe(true);
    expect(gone.checked).toBe(true);
    expect(gone.closest("li")!.textContent).toContain("Already offered: No answer in time");

    const a = within(list).getByRole("checkbox", { name: "Crew a" });
    expect(a.closest("li")!.textContent).toContain(
      "1.2 mi · Tree Removal, Tree Trimming · Emergencies 24/7 · Closed now · 4.8 stars (12)",
    );
    expect(within(list).getByRole("checkbox", { name: "Crew b" }).closest("li")!.textContent).toContain("Open now");
    expect(within(list).getByRole("checkbox", { name: "Crew c" }).closest("li")!.textContent).toContain(
      "No e-mail or phone on file: the offer would come back to you",
    );
    expect(within(list).getByRole("checkbox", { name: "Crew d" }).closest("li")!.textContent).toContain(
      "Stump Grinding · Does not list Tree Removal",
    );
    // A sample business (the demo directory) says so; a real one does not.
    expect(within(list).getByRole("checkbox", { name: "Crew d" }).closest("li")!.textContent).toContain(SAMPLE_LISTING);
    expect(within(list).getByRole("checkbox", { name: "Crew a" }).closest("li")!.textContent).not.toContain(
      SAMPLE_LISTING,
    );
    expect(within(list).getByRole("link", { name: "Profile of Crew a" }).getAttribute("href")).toBe(
      "/directory/crew-a",
    );
  });

  it("posts nothing without a choice; an offer updates the window, the row and what needs the operator", async () => {
    const { dialog, row } = await openLead(lead());
    const section = within(dialog).getByTestId("lead-offers");
    await user.click(within(section).getByRole("button", { name: "Show nearby businesses" }));
    const list = await within(section).findByRole("list", { name: "Nearby businesses" });

    await user.click(within(section).getByRole("button", { name: "Offer to the chosen business" }));
    expect(within(section).getByRole("alert").textContent).toBe("Choose at least one business to offer the lead to.");
    expect(api.to(offersPath, "POST")).toHaveLength(0);

    const offered = (id: string): Delivery => ({
      businessId: id,
      name: `Crew ${id}`,
      slug: `crew-${id}`,
      offeredAt: AT,
      deadlineAt: "2026-11-26T08:10:00.000Z",
      state: "waiting",
    });
    const { escalatedAt: _, ...open } = lead().routing!;
    const after = lead({
      status: "offered",
      routing: { ...open, deliveries: [expired, offered("b"), offered("a")] },
    });
    const answer: AdminOfferReply = { data: after, offered: ["b", "a"] };
    api.on("POST", offersPath, authorized(reply.json(200, answer)));
    // Read again after the offer: the messages it sent show in the window.
    const sent: Message = {
      id: `${LEAD_ID}~offer-b~email`,
      leadId: LEAD_ID,
      kind: "offer",
      audience: "business",
      channel: "email",
      to: "b@pros.test",
      toName: "Crew b",
      subject: "New job: tree removal",
      text: "A customer needs you.",
      state: "kept",
      createdAt: AT,
      attempts: 0,
    };
    api.on(
      "GET",
      `/api/admin/leads/${LEAD_ID}`,
      authorized(reply.json(200, { data: after, outbox: null, messages: [sent] })),
    );
    await user.click(within(list).getByRole("checkbox", { name: "Crew b" }));
    await user.click(within(list).getByRole("checkbox", { name: "Crew a" }));
    await user.click(within(section).getByRole("button", { name: "Offer to 2 businesses" }));
    expect((await within(section).findByRole("status")).textContent).toBe("Offered to Crew b, Crew a.");
    expect(api.to(offersPath, "POST")[0]!.json()).toEqual({ businessIds: ["b", "a"] });

    // Offered ones leave the choices and show as offered; the lead's status and delivery follow.
    for (const name of ["Crew a", "Crew b"]) {
      const waiting = within(list).getByRole("checkbox", { name }) as HTMLInputElement;
      expect(waiting.disabled).toBe(true);
      expect(waiting.closest("li")!.textContent).toContain("Already offered: Waiting for an answer");
    }
    expect(within(list).getAllByRole("checkbox", { checked: false })).toHaveLength(2);
    expect(within(dialog).getByTestId("lead-status").textContent).toContain("Offered");
    const deliveries = within(dialog).getByRole("list", { name: "Businesses offered the lead" });
    expect(within(deliveries).getAllByRole("listitem")).toHaveLength(3);
    // Its deadline in the job's zone, labeled.
    expect(deliveries.textContent).toContain("Nov 26, 2026, 3:10 AM EST");
    expect(await within(dialog).findByRole("heading", { name: "Messages (1)" })).toBeTruthy();
    expect(api.to(`/api/admin/leads/${LEAD_ID}`, "GET")).toHaveLength(2);

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(row.textContent).toContain("Offered");
    // It was escalated (needs you), now offered: the count drops.
    expect(screen.getByRole("tab", { name: /^Leads/ }).textContent).toBe("Leads");
  });

  it("says a refusal in place and keeps the choice", async () => {
    const { dialog } = await openLead(lead());
    const section = within(dialog).getByTestId("lead-offers");
    await user.click(within(section).getByRole("button", { name: "Show nearby businesses" }));
    const list = await within(section).findByRole("list", { name: "Nearby businesses" });
    api.on(
      "POST",
      offersPath,
      authorized(
        reply.json(409, { error: "The lead was already offered to Crew a.", problem: "already", businessIds: ["a"] }),
      ),
    );
    await user.click(within(list).getByRole("checkbox", { name: "Crew a" }));
    await user.click(within(section).getByRole("button", { name: "Offer to the chosen business" }));
    expect((await within(section).findByRole("alert")).textContent).toBe("The lead was already offered to Crew a.");
    expect((within(list).getByRole("checkbox", { name: "Crew a" }) as HTMLInputElement).checked).toBe(true);
  });

  it("a lead whose place is unknown says so, and offers nothing", async () => {
    const { dialog } = await openLead(lead(), { data: [], near: null, service: "Tree Removal", routable: true });
    const section = within(dialog).getByTestId("lead-offers");
    await user.click(within(section).getByRole("button", { name: "Show nearby businesses" }));
    expect(await within(section).findByText(/names no ZIP or city we know/)).toBeTruthy();
    expect(within(section).queryByRole("button", { name: /^Offer to/ })).toBeNull();
  });

  it("a growth request has no such section: it goes to no business", async () => {
    const { dialog } = await openLead(
      lead({ type: "audit", routing: undefined, status: "new", data: { name: "Mia Homeowner" } }),
    );
    expect(within(dialog).queryByTestId("lead-offers")).toBeNull();
  });
});
