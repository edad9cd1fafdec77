// @vitest-environment happy-dom
/**
 * The operator's Claims tab (src/islands/admin/ClaimsPanel.tsx, mounted alone) against a mocked
 * /api/admin/claims: the queue with each claim's details, Approve, Refuse (a reason required
 * before anything is sent), a refused decision's error, every claim under "All", an empty
 * queue; the note after a decision says "e-mailed" only when the e-mail was sent; and (in the
 * whole AdminApp) a claim's messages in the Messages tab offer no lead to
 * open.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import AdminApp from "../../../src/islands/AdminApp.tsx";
import { ClaimsPanel, decisionNotice } from "../../../src/islands/admin/ClaimsPanel.tsx";
import { ADMIN_TOKEN_STORAGE_KEY, type AdminMessagesReply } from "../../../src/lib/admin.ts";
import type { AdminClaimsReply, Claim } from "../../../src/lib/owners/claims.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const NO_PROVIDERS = { webhook: false, email: false, visitorEmail: false, sms: false };

const claim = (n: number, fields: Partial<Claim> = {}): Claim => ({
  id: `cl_${String(n).padStart(20, "a")}`,
  kind: "claim",
  businessId: "biz-7",
  businessName: "Maple Trees",
  businessSlug: "maple-trees",
  claimant: { name: `Nell ${n}`, email: `nell${n}@gmail.test`, role: "manager", note: "I run the office" },
  proof: "operator",
  status: "pending",
  createdAt: "2026-11-20T15:00:00.000Z",
  ...fields,
});
const addition = (n: number): Claim => ({
  id: `cl_${String(n).padStart(20, "b")}`,
  kind: "add",
  businessName: "Cedar Ridge Arborists",
  proposal: {
    businessName: "Cedar Ridge Arborists",
    address: "400 Ridge Rd",
    city: "Austin",
    state: "TX",
    zipCode: "78704",
    phone: "(512) 555-0177",
    businessEmail: "hello@cedar-ridge.test",
    services: ["Tree Removal", "Stump Grinding"],
    businessHours: { monday: "7:00 AM - 5:00 PM" },
    closedHolidays: [],
  },
  claimant: { name: "Cal Cedar", email: "cal@cedar-ridge.test", role: "owner" },
  proof: "operator",
  status: "pending",
  createdAt: "2026-11-21T15:00:00.000Z",
});

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
});

function claims(pending: Claim[], all: Claim[] = pending) {
  api.on("GET", "/api/admin/claims", (call) => {
    const list = call.url.searchParams.get("status") === "all" ? all : pending;
    const body: AdminClaimsReply = { data: list, total: list.length, pending: pending.length };
    return reply.json(200, body)(call);
  });
}

function openClaims() {
  render(<ClaimsPanel token={TOKEN} refreshKey={0} onAuthError={vi.fn()} />);
  return screen.findByRole("region", { name: "Claims" });
}

describe("admin: the Claims tab", () => {
  it("lists the waiting claims with who asks, how, their note, and an added business's details", async () => {
    claims([claim(1), addition(2)]);
    const panel = await openClaims();
    const [first, second] = await within(panel).findAllByRole("listitem");
    expect(first!.textContent).toContain("Maple Trees");
    expect(within(first!).getByRole("link", { name: "Maple Trees" }).getAttribute("href")).toBe(
      "/directory/maple-trees",
    );
    expect(first!.textContent).toContain("Nell 1 (Manager) · nell1@gmail.test");
    expect(first!.textContent).toContain("I run the office");
    expect(first!.textContent).toContain("Another address: send my claim to Treeline to check");
    expect(second!.textContent).toContain("New business");
    expect(second!.textContent).toContain("400 Ridge Rd, Austin, TX 78704");
    expect(second!.textContent).toContain("Tree Removal, Stump Grinding");
    // The hours and holidays as the owner gave them; no years row when none were given.
    expect(second!.textContent).toContain("Mon 7:00 AM - 5:00 PM");
    expect(second!.textContent).toContain("Open on every holiday");
    expect(second!.textContent).not.toContain("Years in business");
    expect(within(panel).getByRole("button", { name: "Waiting (2)" }).getAttribute("aria-pressed")).toBe("true");
    expect(api.to("/api/admin/claims")[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("approves a claim: the PATCH says so, the claim leaves the queue and the operator reads what happened", async () => {
    claims([claim(1), claim(3)]);
    api.on("PATCH", /^\/api\/admin\/claims\/cl_/, (call) =>
      reply.json(200, {
        data: { ...claim(1), status: "approved" },
        business: { id: "biz-7", slug: "maple-trees", name: "Maple Trees" },
        mail: "sent",
      })(call),
    );
    const panel = await openClaims();
    const [first] = await within(panel).findAllByRole("listitem");
    await user.click(within(first!).getByRole("button", { name: "Approve" }));
    expect(await within(panel).findByRole("status")).toHaveProperty(
      "textContent",
      "Approved: nell1@gmail.test now manages Maple Trees and was e-mailed a sign-in link.",
    );
    const [patch] = api.to(`/api/admin/claims/${claim(1).id}`, "PATCH");
    expect(patch!.json()).toEqual({ decision: "approve" });
    expect(within(panel).getAllByRole("listitem")).toHaveLength(1);
    expect(within(panel).getByRole("button", { name: "Waiting (1)" })).toBeTruthy();
  });

  it("approves without an e-mail service: the note says the sign-in link is kept in Messages, not e-mailed", async () => {
    claims([claim(1)]);
    api.on("PATCH", /^\/api\/admin\/claims\/cl_/, (call) =>
      reply.json(200, {
        data: { ...claim(1), status: "approved" },
        business: { id: "biz-7", slug: "maple-trees", name: "Maple Trees" },
        mail: "kept",
      })(call),
    );
    const panel = await openClaims();
    await user.click(await within(panel).findByRole("button", { name: "Approve" }));
    const note = (await within(panel).findByRole("status")).textContent;
    expect(note).toBe(
      "Approved: nell1@gmail.test now manages Maple Trees. No e-mail service is set up, so the sign-in link is kept in Messages: send it to them yourself.",
    );
    expect(note).not.toMatch(/e-mailed|sent/);
  });

  it("says 'e-mailed' only for a sent e-mail, for every outcome of an approval or a refusal", () => {
    for (const decision of ["approve", "refuse"] as const) {
      expect(decisionNotice(decision, "a@b.test", "Maple Trees", "sent")).toContain("was e-mailed");
      for (const mail of ["kept", "retrying", "failed", undefined] as const) {
        const note = decisionNotice(decision, "a@b.test", "Maple Trees", mail);
        expect(note, `${decision} ${mail}`).not.toMatch(/e-mailed|was sent/);
        expect(note, `${decision} ${mail}`).toContain("Messages");
      }
      expect(decisionNotice(decision, "a@b.test", "Maple Trees", "retrying")).toContain("tried again");
      expect(decisionNotice(decision, "a@b.test", "Maple Trees", "kept")).toContain("No e-mail service is set up");
    }
    expect(decisionNotice("refuse", "a@b.test", "Maple Trees", "kept")).toBe(
      "Refused. No e-mail service is set up, so the message with the reason is kept in Messages: tell a@b.test yourself.",
    );
  });

  it("refuses only with a reason, and sends the reason", async () => {
    claims([claim(1)]);
    api.on("PATCH", /^\/api\/admin\/claims\/cl_/, (call) =>
      reply.json(200, { data: { ...claim(1), status: "refused", reason: call.json().reason }, mail: "sent" })(call),
    );
    const panel = await openClaims();
    const item = (await within(panel).findAllByRole("listitem"))[0]!;
    await user.click(within(item).getByRole("button", { name: "Refuse" }));
    expect(within(item).getByText(OWNER_MESSAGES.reasonRequired)).toBeTruthy();
    // The admin's bordered input ("field"), not the unstyled "input" it had.
    expect(within(item).getByRole("textbox", { name: "Reason for refusing" }).className.split(" ")).toContain("field");
    expect(within(item).getByRole("textbox", { name: "Reason for refusing" }).getAttribute("aria-invalid")).toBe(
      "true",
    );
    expect(api.to(`/api/admin/claims/${claim(1).id}`, "PATCH")).toHaveLength(0);

    await user.type(within(item).getByRole("textbox", { name: "Reason for refusing" }), "Not on the company website");
    await user.click(within(item).getByRole("button", { name: "Refuse" }));
    await waitFor(() => expect(api.to(`/api/admin/claims/${claim(1).id}`, "PATCH")).toHaveLength(1));
    expect(api.to(`/api/admin/claims/${claim(1).id}`, "PATCH")[0]!.json()).toEqual({
      decision: "refuse",
      reason: "Not on the company website",
    });
    expect((await within(panel).findByRole("status")).textContent).toBe(
      "Refused: nell1@gmail.test was e-mailed the reason.",
    );
  });

  it("shows the server's refusal of a decision and keeps the claim", async () => {
    claims([claim(1)]);
    api.on("PATCH", /^\/api\/admin\/claims\/cl_/, reply.json(409, { error: OWNER_MESSAGES.claimDecided }));
    const panel = await openClaims();
    await user.click(await within(panel).findByRole("button", { name: "Approve" }));
    expect((await within(panel).findByRole("alert")).textContent).toBe(OWNER_MESSAGES.claimDecided);
    expect(within(panel).getAllByRole("listitem")).toHaveLength(1);
  });

  it("keeps the waiting count of the view shown, not of a slower answer it dropped", async () => {
    let answerPending = () => {};
    const slow = new Promise<void>((resolve) => (answerPending = resolve));
    api.on("GET", "/api/admin/claims", async (call) => {
      if (call.url.searchParams.get("status") === "all") {
        return reply.json(200, { data: [claim(5, { status: "proved" })], total: 1, pending: 2 })(call);
      }
      await slow;
      return reply.json(200, { data: [claim(1)], total: 1, pending: 5 })(call);
    });
    const panel = await openClaims();
    await user.click(within(panel).getByRole("button", { name: "All claims" }));
    expect(await within(panel).findByRole("button", { name: "Waiting (2)" })).toBeTruthy();
    answerPending();
    await waitFor(() => expect(api.to("/api/admin/claims")).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(panel).getByRole("button", { name: "Waiting (2)" })).toBeTruthy();
    expect(within(panel).getAllByRole("listitem")).toHaveLength(1);
    expect(within(panel).getByRole("listitem").textContent).toContain("nell5@gmail.test");
  });

  it("shows every claim under All, decided ones with their reason and no buttons", async () => {
    const refused = claim(4, { status: "refused", reason: "Not staff", decidedAt: "2026-11-22T10:00:00.000Z" });
    const proved = claim(5, { status: "proved", proof: "email" });
    claims([], [refused, proved]);
    const panel = await openClaims();
    expect(await within(panel).findByText("No claims are waiting.")).toBeTruthy();
    await user.click(within(panel).getByRole("button", { name: "All claims" }));
    const items = await within(panel).findAllByRole("listitem");
    expect(api.to("/api/admin/claims").at(-1)!.url.searchParams.get("status")).toBe("all");
    expect(items[0]!.textContent).toContain("Refused");
    expect(items[0]!.textContent).toContain("Not staff");
    expect(items[1]!.textContent).toContain("Proved by the contact on file");
    expect(within(panel).queryByRole("button", { name: "Approve" })).toBeNull();
    // Only the claim that made an owner can be revoked; the refused one offers nothing.
    expect(within(items[0]!).queryByRole("button", { name: "Remove owner" })).toBeNull();
    expect(within(items[1]!).getByRole("button", { name: "Remove owner" })).toBeTruthy();
  });

  it("removes an owner only with a reason, and says their sessions have ended", async () => {
    const proved = claim(5, { status: "proved", proof: "email" });
    claims([], [proved]);
    api.on("PATCH", /^\/api\/admin\/claims\/cl_/, (call) =>
      reply.json(200, { data: { ...proved, status: "revoked", reason: call.json().reason } })(call),
    );
    const panel = await openClaims();
    await user.click(within(panel).getByRole("button", { name: "All claims" }));
    const item = (await within(panel).findAllByRole("listitem"))[0]!;
    await user.click(within(item).getByRole("button", { name: "Remove owner" }));
    expect(within(item).getByText(OWNER_MESSAGES.revokeReasonRequired)).toBeTruthy();
    expect(api.to(`/api/admin/claims/${proved.id}`, "PATCH")).toHaveLength(0);

    const field = within(item).getByRole("textbox", { name: "Reason for removing this owner" });
    await user.type(field, "Left the company in October");
    await user.click(within(item).getByRole("button", { name: "Remove owner" }));
    await waitFor(() => expect(api.to(`/api/admin/claims/${proved.id}`, "PATCH")).toHaveLength(1));
    expect(api.to(`/api/admin/claims/${proved.id}`, "PATCH")[0]!.json()).toEqual({
      decision: "revoke",
      reason: "Left the company in October",
    });
    expect((await within(panel).findByRole("status")).textContent).toBe(
      "Owner removed: nell5@gmail.test no longer manages Maple Trees; their sessions have ended.",
    );
    expect((await within(panel).findAllByRole("listitem"))[0]!.textContent).toContain("Owner removed");
  });
});

describe("admin: a claim's messages", () => {
  it("list in the Messages tab without a lead to open", async () => {
    const kept: Message = {
      id: `${claim(1).id}~owner-sign-in~email`,
      leadId: claim(1).id,
      kind: "owner-sign-in",
      audience: "business",
      channel: "email",
      to: "office@maple.test",
      subject: "Sign in to manage Maple Trees",
      text: "Sign in: https://treeline.test/owner/sign-in/x",
      state: "kept",
      createdAt: "2026-11-20T15:00:00.000Z",
      attempts: 0,
    };
    const body: AdminMessagesReply = { data: [kept], total: 1 };
    api.on("GET", "/api/admin/messages", reply.json(200, body));
    api.on("GET", "/api/admin/outbox", reply.json(200, { data: [], total: 0, channels: NO_PROVIDERS }));
    api.on(
      "GET",
      "/api/admin/leads",
      reply.json(200, { data: [], nextCursor: null, counts: {}, statusCounts: {}, needsYou: 0, emergencies: [] }),
    );
    sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, TOKEN);
    render(<AdminApp />);
    await screen.findByRole("tablist");
    await user.click(screen.getByRole("tab", { name: /^Messages/ }));
    const row = (await screen.findByText("Sign in to manage Maple Trees")).closest("li")!;
    expect(row.textContent).toContain("Owner sign-in link");
    expect(within(row).queryByRole("button", { name: /Open lead/ })).toBeNull();
    // Opened, it files under its claim, not a lead.
    await user.click(within(row).getAllByRole("button")[0]!);
    const terms = within(row)
      .getAllByRole("term")
      .map((t) => t.textContent);
    expect(terms).toContain("Claim");
    expect(terms).not.toContain("Lead");
  });
});
