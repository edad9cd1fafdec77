import { describe, expect, it } from "vitest";
import { isTimeId, timeId } from "../../netlify/lib/store/ids";

describe("timeId", () => {
  it("orders ids made in the same millisecond by when they were made", () => {
    const ids = Array.from({ length: 2000 }, () => timeId("ld"));
    const clocks = new Set(ids.map((id) => id.slice(3, 12)));
    // Thousands of ids in a few milliseconds: most share their clock with another.
    expect(clocks.size).toBeLessThan(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => isTimeId("ld", id))).toBe(true);
  });

  it("never goes back when the clock does", () => {
    const later = timeId("rv", Date.now() + 60_000);
    const after = timeId("rv");
    expect(after > later).toBe(true);
    expect(isTimeId("rv", after)).toBe(true);
  });
});
