// @vitest-environment happy-dom
/**
 * The storm board tab (src/islands/admin/StormBoardPanel.tsx) against a mocked
 * /api/admin/storm-board: each storm's figures under their labels, who is taking storm jobs
 * and who is fully booked, the arrivals per hour, no storm, and the failures (a lost session,
 * a failed read).
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { StormBoardPanel } from "../../../src/islands/admin/StormBoardPanel.tsx";
import { STORM_BOARD_LABELS, type StormBoardReply } from "../../../src/lib/storm-routing.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
let api: FetchMock;
beforeEach(() => {
  api = mockFetch();
});

const BOARD: StormBoardReply = {
  storms: [
    {
      id: "storm_0mx16toyocc3v7zk681",
      name: "Hurricane Test",
      area: "ZIPs 33101, 33125",
      startsAt: "2026-11-29T00:00:00.000Z",
      active: true,
      requests: 42,
      waiting: 7,
      accepted: 30,
      escalated: 4,
      closed: 1,
      taking: [{ id: "b1", name: "Oak Crew" }],
      booked: [{ id: "b2", name: "Pine Crew", until: "2026-12-03" }],
      perHour: [
        { hourStart: "2026-11-29T01:00:00.000Z", count: 30 },
        { hourStart: "2026-11-29T00:00:00.000Z", count: 12 },
      ],
    },
  ],
};
const show = (onAuthError = vi.fn()) =>
  render(<StormBoardPanel token={TOKEN} refreshKey={0} onAuthError={onAuthError} />);

describe("admin: storm board", () => {
  it("shows each storm's figures, who is taking storm jobs or fully booked, and the arrivals per hour", async () => {
    api.on("GET", "/api/admin/storm-board", reply.json(200, BOARD));
    show();
    const card = (await screen.findByRole("heading", { name: /Hurricane Test/ })).closest("article")!;
    const figure = (label: string) =>
      [...card.querySelectorAll("dt")].find((dt) => dt.textContent === label)?.nextElementSibling?.textContent;
    expect(figure(STORM_BOARD_LABELS.requests)).toBe("42");
    expect(figure(STORM_BOARD_LABELS.waiting)).toBe("7");
    expect(figure(STORM_BOARD_LABELS.accepted)).toBe("30");
    expect(figure(STORM_BOARD_LABELS.escalated)).toBe("4");
    expect(card.textContent).toContain("Oak Crew");
    expect(card.textContent).toContain("Pine Crew (until Dec 3)");
    const table = within(card).getByRole("table", { name: STORM_BOARD_LABELS.perHour });
    expect(within(table).getAllByRole("row")).toHaveLength(3);
  });

  it("says when no storm is declared; a lost session signs out; a failed read says so", async () => {
    api.on("GET", "/api/admin/storm-board", reply.json(200, { storms: [] }));
    const first = show();
    expect(await screen.findByText("No storm is declared.")).toBeTruthy();
    first.unmount();

    api.on("GET", "/api/admin/storm-board", reply.json(401, { error: "Sign in again." }));
    const onAuthError = vi.fn();
    const second = show(onAuthError);
    await waitFor(() => expect(onAuthError).toHaveBeenCalled());
    second.unmount();

    api.on("GET", "/api/admin/storm-board", reply.json(500, { error: "Something went wrong." }));
    show();
    expect(await screen.findByRole("alert")).toBeTruthy();
  });
});
