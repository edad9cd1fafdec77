// @vitest-environment happy-dom
/**
 * The directory list's pure parts (BusinessCard with its open badge, SkeletonCard,
 * Pagination, SearchForm's read and fill) and the islands' Stars and Icon, as the visitor
 * (and a screen reader) gets them.
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRef } from "react";
import { describe, expect, it, vi } from "vitest";
import {
  BusinessCard,
  CARD_SERVICES,
  OpenBadge,
  SkeletonCard,
} from "../../../src/islands/directory/list/BusinessCard.tsx";
import { Pagination } from "../../../src/islands/directory/list/Pagination.tsx";
import { SearchForm, fillDirectoryForm, readDirectoryForm } from "../../../src/islands/directory/list/SearchForm.tsx";
import { Icon } from "../../../src/views/Icon.tsx";
import { Star, StarRow, Stars } from "../../../src/islands/Stars.tsx";
import { DEFAULT_DIRECTORY_STATE, normalizeDirectoryState } from "../../../src/lib/directory-url.ts";
import { ratingLabel } from "../../../src/lib/directory.ts";
import { telHref } from "../../../src/lib/site.ts";
import { listBusiness } from "../../helpers/businesses.ts";
import "../../helpers/islands.ts";

/** Monday 2 March 2026, 10:00 and 22:00 in Texas (UTC-6). */
const MONDAY_10AM = Date.UTC(2026, 2, 2, 16);
const MONDAY_10PM = Date.UTC(2026, 2, 3, 4);
const HOURS = { monday: "8:00 AM - 5:00 PM" };

function card(fields: Parameters<typeof listBusiness>[1] = {}, now?: number) {
  render(
    <ul>
      <BusinessCard business={listBusiness(7, fields)} now={now} />
    </ul>,
  );
  return screen.getByTestId("business-card");
}

describe("BusinessCard", () => {
  it("name, stars said once in words, review count, place, phone, View Details and Call Now", () => {
    const el = card({
      name: "Cedar Ridge",
      slug: "cedar-ridge",
      rating: "4.8",
      reviewCount: 12,
      phone: "(214) 555-0101",
    });
    expect(within(el).getByRole("heading", { level: 3 }).textContent).toBe("Cedar Ridge");
    expect(el.textContent).toContain(ratingLabel(4.8));
    expect(el.textContent).toContain("(12 reviews)");
    expect(el.querySelectorAll('[data-star][data-on="true"]')).toHaveLength(4);
    expect(within(el).getByRole("link", { name: "View Details for Cedar Ridge" }).getAttribute("href")).toBe(
      "/directory/cedar-ridge",
    );
    expect(within(el).getByRole("link", { name: "Call Now Cedar Ridge at (214) 555-0101" }).getAttribute("href")).toBe(
      telHref("(214) 555-0101"),
    );
  });

  it('no reviews: "No reviews yet", never "0.0" or empty stars', () => {
    const el = card({ rating: "0.0", reviewCount: 0 });
    expect(within(el).getByTestId("no-reviews").textContent).toBe("No reviews yet");
    expect(el.textContent).not.toContain("0.0");
    expect(el.querySelectorAll("[data-star]")).toHaveLength(0);
  });

  it("from a near-me search, View Details carries the place so the business page gives the distance", () => {
    render(
      <ul>
        <BusinessCard business={listBusiness(8, { slug: "oak-8", distanceMiles: 3.2 })} near="Katy, TX" />
        <BusinessCard business={listBusiness(9, { slug: "oak-9" })} near="Katy, TX" />
      </ul>,
    );
    const links = screen.getAllByRole("link", { name: /View Details/ }).map((a) => a.getAttribute("href"));
    expect(links).toEqual(["/directory/oak-8?near=Katy%2C+TX", "/directory/oak-9"]);
  });

  it("no phone, no Call Now", () => {
    const el = card({ phone: undefined });
    expect(within(el).queryByRole("link", { name: /Call Now/ })).toBeNull();
    expect(within(el).getAllByRole("link")).toHaveLength(1);
  });

  it(`at most ${CARD_SERVICES} services, then "+N more"`, () => {
    const el = card({ services: ["A", "B", "C", "D", "E"] });
    const services = within(el).getByRole("list", { name: "Services" });
    expect(
      within(services)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["A", "B", "C", "+2 more services"]);
  });

  it("one more service reads in the singular", () => {
    const el = card({ services: ["A", "B", "C", "D"] });
    expect(el.textContent).toContain("+1 more service");
  });

  it("Featured badge, suburb name, distance and the 24/7 emergency badge when the business has them", () => {
    const el = card({
      isFeatured: true,
      locality: "Round Rock",
      city: "Austin",
      distanceMiles: 3.24,
      emergency247: true,
    });
    expect(within(el).getByText("Featured")).toBeTruthy();
    expect(el.textContent).toContain("Round Rock, TX");
    expect(within(el).getByTestId("distance").textContent).toBe("3.2 mi away");
    expect(within(el).getByText("24/7 emergency")).toBeTruthy();
  });

  it("a business with response figures shows them with a clock; one without says nothing", () => {
    const el = card({ responseRate: 10, responseOffers: 10 });
    const line = within(el).getByTestId("response-time");
    expect(line.textContent).toBe("Responds to 10% of requests · last 10 requests");
    expect(line.parentElement?.parentElement?.querySelector(".icon-clock")?.getAttribute("aria-hidden")).toBe("true");
    // A card stays short: the rule's link is on the business page.
    expect(within(el).queryByRole("link", { name: "How we measure response" })).toBeNull();
    cleanup();
    expect(within(card({ responseMinutes: 95 })).queryByTestId("response-time")).toBeNull();
    expect(screen.queryByText(/Responds to/)).toBeNull();
  });

  it("without a clock there is no open badge; with one it says Open now or Closed", () => {
    expect(within(card({ businessHours: HOURS })).queryByTestId("open-badge")).toBeNull();
  });

  it.each([
    [MONDAY_10AM, "Open now"],
    [MONDAY_10PM, "Closed"],
  ])("at %s a Monday 8-5 business is %s", (now, text) => {
    expect(
      within(card({ businessHours: HOURS, timeZone: "America/Chicago" }, now)).getByTestId("open-badge").textContent,
    ).toBe(text);
  });

  it("a business open around the clock says 24/7 even before the clock is known", () => {
    const always = Object.fromEntries(
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "Open 24 hours"]),
    );
    render(<OpenBadge business={{ businessHours: always }} />);
    expect(screen.getByTestId("open-badge").textContent).toBe("24/7");
  });

  it("a business by appointment with no hours says By appointment, never Closed, clock or not", () => {
    render(<OpenBadge business={{ businessHours: {}, byAppointment: true }} now={Date.now()} />);
    expect(screen.getByTestId("open-badge").textContent).toBe("By appointment");
  });

  it("the skeleton card is hidden from assistive tech", () => {
    render(
      <ul>
        <SkeletonCard />
      </ul>,
    );
    expect(screen.getByTestId("skeleton-card").getAttribute("aria-hidden")).toBe("true");
    expect(screen.queryByRole("listitem")).toBeNull();
  });
});

describe("Pagination", () => {
  it("links to the neighboring pages, with Page X of Y; a plain click goes through onPage", async () => {
    const onPage = vi.fn();
    render(<Pagination page={2} pages={3} hrefFor={(n) => `/directory?page=${n}`} onPage={onPage} />);
    const nav = screen.getByRole("navigation", { name: "Pagination" });
    expect(within(nav).getByTestId("page-status").textContent).toBe("Page 2 of 3");
    const previous = within(nav).getByRole("link", { name: "Previous" });
    const next = within(nav).getByRole("link", { name: "Next" });
    expect(previous.getAttribute("href")).toBe("/directory?page=1");
    expect(previous.getAttribute("rel")).toBe("prev");
    expect(next.getAttribute("href")).toBe("/directory?page=3");
    await userEvent.click(next);
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it("an unavailable direction is plain text, not a link", () => {
    render(<Pagination page={1} pages={1} hrefFor={(n) => `?page=${n}`} onPage={() => {}} />);
    expect(screen.queryAllByRole("link")).toEqual([]);
    expect(screen.getByTestId("page-previous").getAttribute("aria-disabled")).toBe("true");
    expect(screen.getByTestId("page-next").getAttribute("aria-disabled")).toBe("true");
  });

  it.each([["ctrlKey"], ["metaKey"], ["shiftKey"], ["altKey"]])("a click with %s is the browser's", (modifier) => {
    const onPage = vi.fn();
    render(<Pagination page={1} pages={2} hrefFor={(n) => `?page=${n}`} onPage={onPage} />);
    const event = new MouseEvent("click", { bubbles: true, cancelable: true, [modifier]: true });
    screen.getByRole("link", { name: "Next" }).dispatchEvent(event);
    expect(onPage).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
  });
});

describe("SearchForm", () => {
  function Form(props: { onLocate?: () => void; locating?: boolean; nearError?: string }) {
    const ref = useRef<HTMLFormElement>(null);
    return (
      <SearchForm
        formRef={ref}
        onSearchInput={() => {}}
        onFilterChange={() => {}}
        onSubmit={(e) => e.preventDefault()}
        {...props}
      />
    );
  }

  it("is a GET search form to /directory that reads back and fills in every filter", () => {
    render(<Form />);
    const form = screen.getByRole("search", { name: "Search the tree service directory" }) as HTMLFormElement;
    expect(form.getAttribute("action")).toBe("/directory");
    expect(form.getAttribute("method")).toBe("get");
    expect(readDirectoryForm(form)).toEqual(DEFAULT_DIRECTORY_STATE);
    const state = normalizeDirectoryState({
      search: "oak",
      near: "78664",
      city: "austin",
      radius: 10,
      service: "Tree Removal",
      minRating: 4,
      sort: "distance",
      open: true,
      emergency: true,
      page: 1,
    });
    fillDirectoryForm(form, state);
    expect(readDirectoryForm(form)).toEqual(state);
    expect((screen.getByRole("checkbox", { name: /Open now/ }) as HTMLInputElement).checked).toBe(true);
    fillDirectoryForm(form, DEFAULT_DIRECTORY_STATE);
    expect(readDirectoryForm(form)).toEqual(DEFAULT_DIRECTORY_STATE);
  });

  it("Use my location only when offered; Locating… disables it; the place message is tied to the box", () => {
    const { rerender } = render(<Form />);
    expect(screen.queryByTestId("use-my-location")).toBeNull();
    rerender(<Form onLocate={() => {}} locating nearError="We couldn't find that ZIP code or city" />);
    const button = screen.getByTestId("use-my-location") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe("Locating…");
    const near = screen.getByRole("textbox", { name: "ZIP code or city" });
    expect(near.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(near.getAttribute("aria-describedby")!)!.textContent).toBe(
      "We couldn't find that ZIP code or city",
    );
  });
});

describe("Stars and Icon", () => {
  it("a labeled row is one image named in words; filled stars are the floor of the rating", () => {
    render(<StarRow rating="3.9" label={ratingLabel("3.9")} />);
    const row = screen.getByRole("img", { name: ratingLabel("3.9") });
    expect(row.querySelectorAll('[data-on="true"]')).toHaveLength(3);
    expect(row.querySelectorAll("[data-star]")).toHaveLength(5);
  });

  it("an unlabelled row and a single star are decorative", () => {
    const { container } = render(
      <>
        <StarRow rating={5} />
        <Star on size="size-4" />
      </>,
    );
    expect(screen.queryAllByRole("img")).toEqual([]);
    expect(container.querySelectorAll('[aria-hidden="true"]').length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ["7", "5.0", 5],
    ["not a number", "0.0", 0],
    [-2, "0.0", 0],
  ])("Stars clamps %s to %s", (rating, shown, on) => {
    const { container } = render(<Stars rating={rating} count={1} />);
    expect(container.textContent).toContain(shown);
    expect(container.textContent).toContain(ratingLabel(shown));
    expect(container.textContent).toContain("(1 review)");
    expect(container.querySelectorAll('[data-on="true"]')).toHaveLength(on);
  });

  it("an icon is decorative unless it has a label", () => {
    render(
      <>
        <Icon name="phone" />
        <Icon name="mail" label="Email" />
      </>,
    );
    expect(screen.getAllByRole("img").map((i) => i.getAttribute("aria-label"))).toEqual(["Email"]);
    expect(document.querySelector(".icon-phone")!.getAttribute("aria-hidden")).toBe("true");
  });
});
