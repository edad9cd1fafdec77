// @vitest-environment happy-dom
/**
 * The Reports tab (src/islands/admin/ReportsPanel.tsx) against a mocked /api/admin/reports:
 * the counts by reason (every reason, zeros too) and by form, the newest reports each opening
 * its lead, none yet, and the failures (a lost session, a failed read).
 */
import { fireEvent, render, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ReportsPanel } from "../../../src/islands/admin/ReportsPanel.tsx";
import type { LeadReportSummary } from "../../../src/lib/schemas/lead-report.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const LEAD = "ld_0000000000000000000a";

const SUMMARY: LeadReportSummary = {
  total: 3,
  byReason: { spam: 2, "wrong-area": 1 },
  byForm: { quote: 2, "find-pros": 1 },
  recent: [
    {
      leadId: LEAD,
      reference: "TL-7KQ2-9F",
      businessId: "pro-1",
      businessName: "Pro 1 Trees",
      reason: "spam",
      form: "quote",
      sourcePage: "/services/tree-removal",
      at: "2026-11-28T21:59:00.000Z",
    },
  ],
};

let api: FetchMock;
beforeEach(() => {
  api = mockFetch();
});

const show = (onOpen = vi.fn(), onAuthError = vi.fn()) =>
  render(<ReportsPanel token={TOKEN} refreshKey={0} onOpen={onOpen} onAuthError={onAuthError} />);
const counts = (caption: string) =>
  [...screen.getByRole("table", { name: caption }).querySelectorAll("tr")].map((tr) =>
    [...tr.children].map((c) => c.textContent),
  );

describe("admin: Reports (bad leads)", () => {
  it("counts the reports by reason and by form, and lists the newest, each opening its lead", async () => {
    api.on("GET", "/api/admin/reports", reply.json(200, SUMMARY));
    const onOpen = vi.fn();
    show(onOpen);
    expect(await screen.findByText(/3 leads reported/)).toBeTruthy();
    expect(api.to("/api/admin/reports")[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(counts("By reason")).toEqual([
      ["Wrong area", "1"],
      ["Not our kind of job", "0"],
      ["Bad contact details", "0"],
      ["Duplicate", "0"],
      ["Spam", "2"],
    ]);
    expect(counts("By form")).toEqual([
      ["Quotes", "2"],
      ["Find-pros requests", "1"],
    ]);
    const item = within(screen.getByRole("list", { name: "Newest reports" })).getByRole("listitem");
    expect(item.textContent).toContain("Spam · Pro 1 Trees");
    expect(item.textContent).toContain("Quotes from /services/tree-removal");
    fireEvent.click(within(item).getByRole("button", { name: "TL-7KQ2-9F" }));
    expect(onOpen).toHaveBeenCalledWith(LEAD, expect.anything());
  });

  it("says when no business has reported a lead; a lost session signs out, a failed read says so", async () => {
    api.on("GET", "/api/admin/reports", reply.json(200, { total: 0, byReason: {}, byForm: {}, recent: [] }));
    show();
    expect(await screen.findByText("No business has reported a lead.")).toBeTruthy();

    api.on("GET", "/api/admin/reports", reply.json(401, { error: "Sign in with the operator token." }));
    const onAuthError = vi.fn();
    show(vi.fn(), onAuthError);
    await vi.waitFor(() => expect(onAuthError).toHaveBeenCalled());

    api.on("GET", "/api/admin/reports", reply.json(503, { error: "The store is unavailable." }));
    show();
    expect(await screen.findByText("The store is unavailable.")).toBeTruthy();
  });
});
