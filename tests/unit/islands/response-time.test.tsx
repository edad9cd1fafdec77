// @vitest-environment happy-dom
/**
 * ResponseTime, the response figures' line on the cards and the business page: nothing without a
 * rate, the rate alone, the rate with the time, the window in words, and the rule's link when
 * asked for.
 */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ResponseTime } from "../../../src/islands/directory/ResponseTime.tsx";
import { RESPONSE_RULES_PATH, responseFigures } from "../../../src/lib/response-time.ts";
import "../../helpers/islands.ts";

afterEach(cleanup);

const line = () => screen.queryByTestId("response-time")?.textContent ?? null;

describe("ResponseTime", () => {
  it("draws nothing while the business has no rate (too few outcomes, or a time alone)", () => {
    const { container } = render(<ResponseTime figures={{}} />);
    expect(container.innerHTML).toBe("");
    render(<ResponseTime figures={{ responseOffers: 4 }} rulesLink />);
    render(<ResponseTime figures={{ responseMinutes: 20, responseOffers: 4 }} />);
    expect(line()).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("1 answered and 9 expired offers: 10%, without a time", () => {
    const figures = responseFigures([
      { answered: true, minutes: 20, inTime: true },
      ...Array.from({ length: 9 }, () => ({ answered: false as const })),
    ]);
    render(<ResponseTime figures={figures} />);
    expect(line()).toBe("Responds to 10% of requests · last 10 requests");
    expect(screen.queryByText(/usually within/)).toBeNull();
  });

  it("the rate, the time and the window; the clock is hidden from screen readers", () => {
    const { container } = render(
      <ResponseTime figures={{ responseRate: 90, responseMinutes: 95, responseOffers: 50 }} className="x-line" />,
    );
    expect(line()).toBe("Responds to 90% of requests · usually within 2 hours · last 50 requests");
    expect(container.querySelector(".x-line .icon-clock")?.getAttribute("aria-hidden")).toBe("true");
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("links to the rule when asked, outside the figure's own words", () => {
    render(<ResponseTime figures={{ responseRate: 100, responseOffers: 6 }} rulesLink />);
    const link = screen.getByRole("link", { name: "How we measure response" });
    expect(link.getAttribute("href")).toBe(RESPONSE_RULES_PATH);
    expect(RESPONSE_RULES_PATH).toBe("/how-reviews-work#response");
    expect(line()).toBe("Responds to 100% of requests · last 6 requests");
  });
});
