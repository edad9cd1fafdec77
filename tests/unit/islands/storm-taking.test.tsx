// @vitest-environment happy-dom
/**
 * Inside a storm, a business taking storm jobs says so where it is listed: the matches a
 * request was offered to (with the line that they were offered first) and its directory card;
 * the match replies and the list carry the mark through. Outside a storm nothing changes.
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BusinessCard } from "../../../src/islands/directory/list/BusinessCard.tsx";
import { Confirmation } from "../../../src/islands/find-pros/Confirmation.tsx";
import { receiptOf } from "../../../src/lib/receipt.ts";
import { toListBusiness } from "../../../src/lib/directory-list.ts";
import { readMatches } from "../../../src/lib/offers.ts";
import { TAKING_FIRST, TAKING_STORM_JOBS } from "../../../src/lib/storm-routing.ts";
import { MatchList } from "../../../src/views/leads/Matches.tsx";
import { listBusiness } from "../../helpers/businesses.ts";
import "../../helpers/islands.ts";

afterEach(cleanup);

describe("taking storm jobs", () => {
  it("marks the matches taking storm jobs and says they were offered first; none marked, no line", () => {
    const matches = readMatches({
      matches: [
        { name: "Storm Crew", slug: "storm-crew", phone: null, rating: "4.5", reviewCount: 2, takingStormJobs: true },
        { name: "Near Crew", slug: "near-crew", phone: null, rating: "4.0", reviewCount: 1, takingStormJobs: "yes" },
      ],
    });
    expect(matches.map((m) => m.takingStormJobs ?? false)).toEqual([true, false]);
    render(<MatchList matches={matches} />);
    expect(screen.getByText(TAKING_FIRST.matches)).toBeTruthy();
    const items = screen.getAllByRole("listitem");
    expect(within(items[0]!).getByText(TAKING_STORM_JOBS)).toBeTruthy();
    expect(within(items[1]!).queryByText(TAKING_STORM_JOBS)).toBeNull();
    cleanup();

    render(<MatchList matches={[{ ...matches[1]! }]} />);
    expect(screen.queryByText(TAKING_FIRST.matches)).toBeNull();
    cleanup();

    // The find-pros island's own confirmation, from the same reply.
    render(
      <Confirmation
        matches={matches.map((m) => ({ ...m, rating: Number(m.rating) }))}
        receipt={receiptOf({ reference: "TL-1234" })}
        name="Ann"
        location="33131"
        onReset={() => {}}
      />,
    );
    expect(screen.getByText(TAKING_FIRST.matches)).toBeTruthy();
    expect(screen.getAllByText(TAKING_STORM_JOBS)).toHaveLength(1);
  });

  it("shows the tag on a directory card that carries the mark, through the list's own copy", () => {
    const taking = toListBusiness({ ...listBusiness(1), takingStormJobs: true });
    expect(taking.takingStormJobs).toBe(true);
    render(<BusinessCard business={taking} />);
    expect(screen.getByText(TAKING_STORM_JOBS)).toBeTruthy();
    cleanup();
    render(<BusinessCard business={toListBusiness(listBusiness(2))} />);
    expect(screen.queryByText(TAKING_STORM_JOBS)).toBeNull();
  });
});
