// @vitest-environment happy-dom
/**
 * The Storms tab (src/islands/admin/StormsPanel.tsx) against a mocked /api/admin/storms: what
 * it says of the last National Weather Service check, which must never read as "nothing
 * waiting" when the check could not read the alerts.
 */
import { render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { StormsPanel } from "../../../src/islands/admin/StormsPanel.tsx";
import type { AdminStormsReply } from "../../../src/lib/storm.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const AT = "2026-11-29T02:45:00.000Z";
let api: FetchMock;
beforeEach(() => {
  api = mockFetch();
});

const show = (answer: AdminStormsReply) => {
  api.on("GET", "/api/admin/storms", reply.json(200, answer));
  render(<StormsPanel token="operator-token-for-tests" refreshKey={0} onAuthError={vi.fn()} />);
};

describe("admin: Storms, the last NWS check", () => {
  it("a check that read every state: its time, and nothing waiting", async () => {
    show({ storms: [], suggestions: [], lastCheck: { at: AT, outcome: "ok" } });
    expect(await screen.findByText("No storm alerts waiting.")).toBeTruthy();
    expect(screen.getByText(/^Last check: [^:]+:\d\d [AP]M\. Nothing shows/)).toBeTruthy();
  });

  it("a check that could not read the alerts says so, and not that nothing is waiting", async () => {
    const error = "the National Weather Service's alerts were not read for 5 of 5 states";
    show({ storms: [], suggestions: [], lastCheck: { at: AT, outcome: "failed", error } });
    expect(await screen.findByText(/could not read them all/)).toBeTruthy();
    expect(screen.getByText(new RegExp(`failed, ${error}`))).toBeTruthy();
    expect(screen.queryByText("No storm alerts waiting.")).toBeNull();
  });

  it("no check yet", async () => {
    show({ storms: [], suggestions: [] });
    expect(await screen.findByText(/No check has run yet/)).toBeTruthy();
  });
});
