// @vitest-environment happy-dom
/** Where a routed lead stands, in the inbox's rows: a pro accepted, or it needs a person. */
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RoutingBadge } from "../../../src/islands/admin/StatusBadge.tsx";
import type { Routing } from "../../../src/lib/schemas/lead.ts";

afterEach(cleanup);

const AT = "2026-11-26T12:00:00.000Z";
const delivery = (state: Routing["deliveries"][number]["state"]) => ({
  businessId: "biz-1",
  name: "Cedar Crew",
  slug: "cedar-crew",
  offeredAt: AT,
  deadlineAt: AT,
  state,
});

describe("RoutingBadge", () => {
  it("says a pro accepted, or that the lead needs the operator; nothing while pros are asked", () => {
    const text = (routing?: Routing) => render(<RoutingBadge routing={routing} />).container.textContent;
    expect(text(undefined)).toBe("");
    expect(text({ deliveries: [delivery("waiting")], events: [] })).toBe("");
    cleanup();
    expect(
      text({ deliveries: [delivery("expired"), { ...delivery("accepted"), businessId: "biz-2" }], events: [] }),
    ).toBe("Pro accepted");
    cleanup();
    expect(text({ deliveries: [delivery("declined")], events: [], escalatedAt: AT })).toBe("Needs you");
  });
});
