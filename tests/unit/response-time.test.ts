/**
 * src/lib/response-time.ts: daytime minutes on the business's own clock (night 21:00-07:00
 * left out, DST days included), its inverse, the median, the response rate and the figures over
 * the window of outcomes, their words ("Responds to 10% of requests · usually within 2 hours ·
 * last 10 requests") and the rule's explanation written from the same constants.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MIN_RESPONSE_OFFERS,
  MIN_RESPONSE_SAMPLES,
  NIGHT_END_HOUR,
  NIGHT_START_HOUR,
  RESPONSE_RULES,
  RESPONSE_WINDOW,
  addDaytimeMinutes,
  daytimeMinutesBetween,
  figuresOf,
  formatResponseTime,
  medianMinutes,
  responseFigures,
  responseLabel,
  responseLine,
  responseRate,
  type OfferOutcome,
} from "../../src/lib/response-time.ts";

const CHICAGO = "America/Chicago";
const NEW_YORK = "America/New_York";
const H = 3_600_000;
const M = 60_000;

/** A wall time in Chicago in March 2026 before the 8th (CST, UTC-6). */
const cst = (day: number, hour: number, minute = 0) => Date.UTC(2026, 2, day, hour + 6, minute);

describe("daytimeMinutesBetween", () => {
  it("counts only 07:00-21:00 on the business's clock", () => {
    expect([NIGHT_START_HOUR, NIGHT_END_HOUR]).toEqual([21, 7]);
    // Within one day.
    expect(daytimeMinutesBetween(cst(2, 10), cst(2, 12, 30), CHICAGO)).toBe(150);
    // Sent at 22:00, answered 07:30 the next morning: 30 minutes.
    expect(daytimeMinutesBetween(cst(2, 22), cst(3, 7, 30), CHICAGO)).toBe(30);
    // Sent at 20:30, answered 07:15: the half hour before night plus a quarter after it.
    expect(daytimeMinutesBetween(cst(2, 20, 30), cst(3, 7, 15), CHICAGO)).toBe(45);
    // Entirely at night.
    expect(daytimeMinutesBetween(cst(2, 21), cst(3, 7), CHICAGO)).toBe(0);
    expect(daytimeMinutesBetween(cst(2, 1), cst(2, 6, 59), CHICAGO)).toBe(0);
    // A full day is 14 daytime hours; a week 98.
    expect(daytimeMinutesBetween(cst(2, 0), cst(3, 0), CHICAGO)).toBe(14 * 60);
    expect(daytimeMinutesBetween(cst(1, 12), cst(8, 0), CHICAGO)).toBe(6 * 14 * 60 + 9 * 60);
  });

  it("is 0 when the end is not after the start, and fractional for part minutes", () => {
    expect(daytimeMinutesBetween(cst(2, 12), cst(2, 12), CHICAGO)).toBe(0);
    expect(daytimeMinutesBetween(cst(2, 12), cst(2, 11), CHICAGO)).toBe(0);
    expect(daytimeMinutesBetween(cst(2, 12), cst(2, 12) + 30_000, CHICAGO)).toBe(0.5);
  });

  it("reads the night in the business's zone, America/Chicago by default", () => {
    // 22:00 in New York is 21:00 in Chicago: night in both, so an hour later counts nothing.
    const tenPmEastern = Date.UTC(2026, 2, 3, 3);
    expect(daytimeMinutesBetween(tenPmEastern, tenPmEastern + H, NEW_YORK)).toBe(0);
    // 20:00 in Chicago is daytime there until 21:00.
    const eightPmCentral = Date.UTC(2026, 2, 3, 2);
    expect(daytimeMinutesBetween(eightPmCentral, eightPmCentral + 2 * H, CHICAGO)).toBe(60);
    expect(daytimeMinutesBetween(eightPmCentral, eightPmCentral + 2 * H)).toBe(60);
    expect(daytimeMinutesBetween(eightPmCentral, eightPmCentral + 2 * H, NEW_YORK)).toBe(0);
  });

  it("keeps a daytime hour an hour on the days clocks change", () => {
    // Spring forward, Sunday 8 March 2026: Saturday 20:00 CST to Sunday 08:00 CDT is 11 real
    // hours, of which 20-21 and 7-8 are daytime.
    expect(daytimeMinutesBetween(Date.UTC(2026, 2, 8, 2), Date.UTC(2026, 2, 8, 13), CHICAGO)).toBe(120);
    // The whole Sunday still has 14 daytime hours (its night is an hour shorter).
    expect(daytimeMinutesBetween(Date.UTC(2026, 2, 8, 6), Date.UTC(2026, 2, 9, 5), CHICAGO)).toBe(14 * 60);
    // Fall back, Sunday 1 November 2026: 06:30 CST to 07:30 CST is daytime 07:00-07:30.
    expect(daytimeMinutesBetween(Date.UTC(2026, 10, 1, 12, 30), Date.UTC(2026, 10, 1, 13, 30), CHICAGO)).toBe(30);
    // New York: Saturday 7 March 20:30 EST to Sunday 07:30 EDT.
    expect(daytimeMinutesBetween(Date.UTC(2026, 2, 8, 1, 30), Date.UTC(2026, 2, 8, 11, 30), NEW_YORK)).toBe(60);
  });

  it("refuses instants that are not numbers", () => {
    expect(() => daytimeMinutesBetween(Number.NaN, 0, CHICAGO)).toThrow(RangeError);
    expect(() => daytimeMinutesBetween(0, Infinity, CHICAGO)).toThrow(RangeError);
  });
});

describe("addDaytimeMinutes", () => {
  it("adds daytime only, a night start counting from 07:00 the next morning", () => {
    expect(addDaytimeMinutes(cst(2, 10), 90, CHICAGO)).toBe(cst(2, 11, 30));
    expect(addDaytimeMinutes(cst(2, 20, 30), 45, CHICAGO)).toBe(cst(3, 7, 15));
    expect(addDaytimeMinutes(cst(2, 22), 0, CHICAGO)).toBe(cst(3, 7));
    expect(addDaytimeMinutes(cst(3, 3), 30, CHICAGO)).toBe(cst(3, 7, 30));
    expect(addDaytimeMinutes(cst(2, 10), 0, CHICAGO)).toBe(cst(2, 10));
    expect(addDaytimeMinutes(cst(2, 10), -5, CHICAGO)).toBe(cst(2, 10));
    // Ending exactly at nightfall stays on that evening.
    expect(addDaytimeMinutes(cst(2, 20), 60, CHICAGO)).toBe(cst(2, 21));
    // Across the spring-forward night: Saturday 20:00 CST + 2 h = Sunday 08:00 CDT.
    expect(addDaytimeMinutes(Date.UTC(2026, 2, 8, 2), 120, CHICAGO)).toBe(Date.UTC(2026, 2, 8, 13));
  });

  it("is the inverse of daytimeMinutesBetween, DST change days included", () => {
    // Instants within a day or two of the 2026 and 2027 clock changes, and anywhere in 2026.
    const changes = [
      Date.UTC(2026, 2, 8, 8),
      Date.UTC(2026, 10, 1, 7),
      Date.UTC(2027, 2, 14, 8),
      Date.UTC(2027, 10, 7, 7),
    ];
    const nearChange = fc
      .tuple(fc.constantFrom(...changes), fc.integer({ min: -36 * 60, max: 36 * 60 }))
      .map(([at, minutes]) => at + minutes * M);
    const anyTime = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) });
    fc.assert(
      fc.property(
        fc.oneof(nearChange, anyTime),
        fc.integer({ min: 0, max: 5 * 14 * 60 }),
        fc.constantFrom(CHICAGO, NEW_YORK),
        (start, minutes, zone) => {
          const end = addDaytimeMinutes(start, minutes, zone);
          expect(end).toBeGreaterThanOrEqual(start);
          expect(daytimeMinutesBetween(start, end, zone)).toBe(minutes);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("medianMinutes", () => {
  it("is the middle sample, or the mean of the two middle ones", () => {
    expect(medianMinutes([30])).toBe(30);
    expect(medianMinutes([90, 5, 30])).toBe(30);
    expect(medianMinutes([10, 40, 20, 30])).toBe(25);
    expect(medianMinutes([1, 2])).toBe(1.5);
    expect(Number.isNaN(medianMinutes([]))).toBe(true);
  });

  it("leaves its input alone", () => {
    const samples = [3, 1, 2];
    medianMinutes(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe("formatResponseTime", () => {
  it("rounds up to the next phrase", () => {
    const cases: [number, string][] = [
      [0, "15 minutes"],
      [15, "15 minutes"],
      [15.5, "30 minutes"],
      [30, "30 minutes"],
      [31, "an hour"],
      [60, "an hour"],
      [61, "2 hours"],
      [120, "2 hours"],
      [121, "4 hours"],
      [240, "4 hours"],
      [241, "a day"],
      [1440, "a day"],
      [1441, "a few days"],
      [10_000, "a few days"],
    ];
    for (const [minutes, phrase] of cases) expect(formatResponseTime(minutes), `${minutes}`).toBe(phrase);
  });

  it("reads as part of the figure's line", () => {
    expect(responseLabel({ responseRate: 90, responseMinutes: 95, responseOffers: 50 })).toBe(
      "Responds to 90% of requests · usually within 2 hours · last 50 requests",
    );
  });
});

const answered = (minutes: number, inTime = true): OfferOutcome => ({ answered: true, minutes, inTime });
const MISSED: OfferOutcome = { answered: false };

describe("responseRate", () => {
  it("is a whole percent, never rounded to 0 or 100 unless it is", () => {
    expect(responseRate(1, 10)).toBe(10);
    expect(responseRate(2, 3)).toBe(67);
    expect(responseRate(0, 7)).toBe(0);
    expect(responseRate(7, 7)).toBe(100);
    expect(responseRate(999, 1000)).toBe(99);
    expect(responseRate(1, 1000)).toBe(1);
  });

  it("refuses counts that are not a share", () => {
    expect(() => responseRate(1, 0)).toThrow(RangeError);
    expect(() => responseRate(3, 2)).toThrow(RangeError);
    expect(() => responseRate(-1, 2)).toThrow(RangeError);
  });
});

describe("responseFigures", () => {
  it("1 answered and 9 expired offers: a 10% response rate, no time yet", () => {
    const figures = responseFigures([answered(20), ...Array.from({ length: 9 }, () => MISSED)]);
    expect(figures).toEqual({ responseRate: 10, responseOffers: 10 });
    expect(responseLabel(figures)).toBe("Responds to 10% of requests · last 10 requests");
  });

  it("shows nothing before the minimum number of outcomes, then the rate, then the time", () => {
    expect([MIN_RESPONSE_OFFERS, MIN_RESPONSE_SAMPLES, RESPONSE_WINDOW]).toEqual([5, 3, 50]);
    expect(responseFigures([])).toEqual({});
    const four = [answered(10), answered(20), answered(30), answered(40)];
    expect(responseFigures(four)).toEqual({ responseOffers: 4 });
    expect(responseLabel(responseFigures(four))).toBe("");
    // Five outcomes but two answers: the rate alone.
    expect(responseFigures([answered(10), answered(20), MISSED, MISSED, MISSED])).toEqual({
      responseRate: 40,
      responseOffers: 5,
    });
    expect(responseFigures([answered(10), answered(20), answered(30.4), MISSED, MISSED])).toEqual({
      responseRate: 60,
      responseMinutes: 20,
      responseOffers: 5,
    });
  });

  it("counts a late answer in the time but not in the rate", () => {
    const figures = responseFigures([answered(30), answered(600, false), answered(60), MISSED, MISSED]);
    expect(figures).toEqual({ responseRate: 40, responseMinutes: 60, responseOffers: 5 });
  });

  it("covers only the newest outcomes (the list is newest first)", () => {
    const newest = Array.from({ length: RESPONSE_WINDOW }, () => answered(5));
    const older = Array.from({ length: 30 }, () => MISSED);
    expect(responseFigures([...newest, ...older])).toEqual({
      responseRate: 100,
      responseMinutes: 5,
      responseOffers: RESPONSE_WINDOW,
    });
  });

  it("agrees with figuresOf over the same counts, for any outcomes", () => {
    const outcome = fc.oneof(
      fc.constant(MISSED),
      fc.record({
        answered: fc.constant(true as const),
        minutes: fc.integer({ min: 0, max: 5000 }),
        inTime: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 80 }), (outcomes) => {
        const window = outcomes.slice(0, RESPONSE_WINDOW);
        const minutes = window.flatMap((o) => (o.answered ? [o.minutes] : []));
        const figures = responseFigures(outcomes);
        expect(figures).toEqual(
          figuresOf({
            offers: window.length,
            inTime: window.filter((o) => o.answered && o.inTime).length,
            answers: minutes.length,
            median: minutes.length ? medianMinutes(minutes) : undefined,
          }),
        );
        if (figures.responseRate !== undefined) {
          expect(figures.responseRate).toBeGreaterThanOrEqual(0);
          expect(figures.responseRate).toBeLessThanOrEqual(100);
        }
        expect(figures.responseOffers ?? 0).toBeLessThanOrEqual(RESPONSE_WINDOW);
      }),
    );
  });
});

describe("responseLine", () => {
  it("is null without a rate; the time joins when there is one; one request is singular", () => {
    expect(responseLine({})).toBeNull();
    expect(responseLine({ responseOffers: 4 })).toBeNull();
    expect(responseLine({ responseMinutes: 20, responseOffers: 4 })).toBeNull();
    expect(responseLine({ responseRate: 75, responseMinutes: 20, responseOffers: 8 })).toEqual({
      rate: "Responds to 75% of requests",
      time: "usually within 30 minutes",
      window: "last 8 requests",
    });
    expect(responseLine({ responseRate: 100, responseOffers: 1 })?.window).toBe("last 1 request");
  });
});

describe("RESPONSE_RULES", () => {
  const text = RESPONSE_RULES.map((r) => `${r.term}: ${r.text}`).join("\n");

  it("states the window, the minimum samples and the daytime hours from the constants", () => {
    expect(RESPONSE_RULES.map((r) => r.term)).toEqual([
      "Which requests count",
      "Response rate",
      "Response time",
      "When it shows",
    ]);
    expect(text).toContain(`latest ${RESPONSE_WINDOW} requests`);
    expect(text).toContain(`until ${MIN_RESPONSE_OFFERS} requests have an outcome`);
    expect(text).toContain(`needs ${MIN_RESPONSE_SAMPLES} answered ones`);
    expect(text).toContain("7 AM to 9 PM");
    expect(text).toContain("sent at 11 PM and answered at 7:30 AM took 30 minutes");
  });

  it("says a miss counts and an undelivered request does not", () => {
    expect(text).toContain("left unanswered until its deadline counts against it");
    expect(text).toContain("could not deliver to the business does not count");
    expect(text).toContain("accepted and later gave back still counts as answered");
  });
});
