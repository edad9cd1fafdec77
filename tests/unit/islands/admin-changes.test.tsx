// @vitest-environment happy-dom
/**
 * The operator's Changes tab (src/islands/admin/ChangesPanel.tsx) against a mocked
 * /api/admin/changes: each change with business, who, when, summary and fields before ->
 * after; Roll back asks again and can be canceled; a confirmed rollback posts and reads the
 * list again; the server's refusal shows inline; a lost sign-in goes back to the token; the
 * business filter narrows the query; paging.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ChangesPanel } from "../../../src/islands/admin/ChangesPanel.tsx";
import {
  CHANGES_BUSINESS_LABEL,
  HOLIDAY_VALUE_TEXT,
  NOTHING_TO_ROLL_BACK,
  type AdminChange,
  type AdminChangesReply,
} from "../../../src/lib/admin-changes.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";

function change(n: number, fields: Partial<AdminChange> = {}): AdminChange {
  return {
    id: `ch_mwz${n}0123456789abcdef`.slice(0, 20),
    businessId: "biz-001",
    businessName: "Oak Crew",
    businessSlug: "oak-crew",
    at: "2026-11-27T15:00:00.000Z",
    actor: { kind: "owner", email: "owner@example.com" },
    summary: "Profile and hours",
    before: { businessHours: { monday: "7:00 AM - 6:00 PM" }, website: null },
    after: { businessHours: { monday: "8:00 AM - 5:00 PM" }, website: "https://oak.example.com" },
    ...fields,
  };
}

const page = (data: AdminChange[], nextCursor: string | null = null): AdminChangesReply => ({
  data,
  nextCursor,
  total: data.length,
});

let api: FetchMock;
let user: UserEvent;
beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
});

function show(onAuthError = vi.fn()) {
  render(<ChangesPanel token={TOKEN} refreshKey={0} onAuthError={onAuthError} />);
  return onAuthError;
}

describe("ChangesPanel", () => {
  it("shows each change: business, who, summary, and every field before -> after", async () => {
    api.on(
      "GET",
      "/api/admin/changes",
      reply.json(
        200,
        page([change(1), change(2, { actor: { kind: "operator" }, revertOf: "ch_x", summary: "Rolled back: Photos" })]),
      ),
    );
    show();
    const items = await screen.findAllByRole("listitem");
    expect(items).toHaveLength(2);
    const first = within(items[0]!);
    expect(first.getByRole("link", { name: "Oak Crew" }).getAttribute("href")).toBe("/directory/oak-crew");
    expect(first.getByText("Owner owner@example.com")).toBeTruthy();
    expect(first.getByText("Hours")).toBeTruthy();
    const week = (monday: string) =>
      `Mon ${monday}; Tue closed; Wed closed; Thu closed; Fri closed; Sat closed; Sun closed`;
    expect(first.getByText(week("7:00 AM - 6:00 PM"))).toBeTruthy();
    expect(first.getByText(week("8:00 AM - 5:00 PM"))).toBeTruthy();
    expect(first.getByText("(none)")).toBeTruthy();
    expect(first.getByText("https://oak.example.com")).toBeTruthy();
    const second = within(items[1]!);
    expect(second.getByText("Operator")).toBeTruthy();
    expect(second.getByText("Rollback")).toBeTruthy();
    expect(api.calls[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("says what an absent or empty holiday list means, never a bare (none)", async () => {
    const holidays = change(1, {
      before: { closedHolidays: null },
      after: { closedHolidays: [] },
    });
    const narrowed = change(2, {
      before: { closedHolidays: ["Thanksgiving Day"] },
      after: { closedHolidays: null },
    });
    api.on("GET", "/api/admin/changes", reply.json(200, page([holidays, narrowed])));
    show();
    const [first, second] = (await screen.findAllByRole("listitem")).map((li) => within(li));
    expect(first!.getByText("Holiday closures")).toBeTruthy();
    expect(first!.getByText(HOLIDAY_VALUE_TEXT.absent).tagName).toBe("DEL");
    expect(first!.getByText(HOLIDAY_VALUE_TEXT.empty).tagName).toBe("INS");
    expect(first!.queryByText("(none)")).toBeNull();
    expect(second!.getByText("Thanksgiving Day")).toBeTruthy();
    expect(second!.getByText("All six public holidays (default)")).toBeTruthy();
  });

  it("shows licence and insurance in words, whole, not as JSON", async () => {
    const credentials = change(1, {
      before: {
        credentials: {
          licence: { state: "CA", type: "C-49", number: "1012345", check: { checkedAt: "2026-11-28T18:00:00.000Z" } },
        },
      },
      after: {
        credentials: {
          licence: { state: "CA", type: "C-49", number: "1012345", check: { checkedAt: "2026-11-28T18:00:00.000Z" } },
          insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2027-06-30" },
        },
      },
    });
    api.on("GET", "/api/admin/changes", reply.json(200, page([credentials])));
    show();
    const item = within((await screen.findAllByRole("listitem"))[0]!);
    const licence = "License CA C-49 #1012345 (checked Nov 28, 2026)";
    expect(item.getByText(licence).tagName).toBe("DEL");
    expect(
      item.getByText(`${licence}; Insurance Acme Mutual, $1,000,000, to Jun 30, 2027 (not checked yet)`),
    ).toBeTruthy();
    expect(item.queryByText(/[{}"]/)).toBeNull();
  });

  it("says so when there are no changes", async () => {
    api.on("GET", "/api/admin/changes", reply.json(200, page([])));
    show();
    expect(await screen.findByText("No changes yet.")).toBeTruthy();
  });

  it("Roll back asks first; Cancel posts nothing", async () => {
    api.on("GET", "/api/admin/changes", reply.json(200, page([change(1)])));
    show();
    await user.click(await screen.findByRole("button", { name: "Roll back" }));
    expect(screen.getByRole("button", { name: "Yes, roll back" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("button", { name: "Roll back" })).toBeTruthy();
    expect(api.calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("a confirmed rollback posts, says so, and reads the list again", async () => {
    const c = change(1);
    api.on("GET", "/api/admin/changes", reply.json(200, page([c])));
    api.on("POST", `/api/admin/changes/${c.id}/rollback`, reply.json(201, { data: change(3, { revertOf: c.id }) }));
    show();
    await user.click(await screen.findByRole("button", { name: "Roll back" }));
    await user.click(screen.getByRole("button", { name: "Yes, roll back" }));
    expect(await screen.findByText('Rolled back "Profile and hours" on Oak Crew.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === "GET")).toHaveLength(2);
    expect(api.unexpected).toEqual([]);
  });

  it("shows the server's refusal inline (nothing to roll back)", async () => {
    const c = change(1);
    api.on("GET", "/api/admin/changes", reply.json(200, page([c])));
    api.on("POST", `/api/admin/changes/${c.id}/rollback`, reply.json(409, { error: NOTHING_TO_ROLL_BACK }));
    show();
    await user.click(await screen.findByRole("button", { name: "Roll back" }));
    await user.click(screen.getByRole("button", { name: "Yes, roll back" }));
    expect((await screen.findByRole("alert")).textContent).toBe(NOTHING_TO_ROLL_BACK);
  });

  it("a lost sign-in hands back to the token form", async () => {
    api.on("GET", "/api/admin/changes", reply.json(401, { error: "Sign in" }));
    const onAuthError = show();
    await vi.waitFor(() => expect(onAuthError).toHaveBeenCalled());
  });

  it("narrows to one business and pages on", async () => {
    api.on("GET", "/api/admin/changes", reply.json(200, page([change(1)], "25")));
    show();
    await screen.findAllByRole("listitem");
    await user.type(screen.getByLabelText(CHANGES_BUSINESS_LABEL), "biz-007");
    await user.click(screen.getByRole("button", { name: "Show" }));
    await vi.waitFor(() => expect(api.calls.at(-1)!.url.searchParams.get("businessId")).toBe("biz-007"));
    await user.click(await screen.findByRole("button", { name: "Load more" }));
    await vi.waitFor(() => expect(api.calls.at(-1)!.url.searchParams.get("cursor")).toBe("25"));
  });

  it("takes a pasted page address in the business box and sends it for the server to resolve", async () => {
    api.on("GET", "/api/admin/changes", reply.json(200, page([change(1)])));
    show();
    await screen.findAllByRole("listitem");
    const box = screen.getByRole("textbox", { name: "Business (id or page address)" });
    await user.type(box, "https://treeline.example/directory/oak-crew");
    await user.click(screen.getByRole("button", { name: "Show" }));
    await vi.waitFor(() =>
      expect(api.calls.at(-1)!.url.searchParams.get("businessId")).toBe("https://treeline.example/directory/oak-crew"),
    );
  });
});
