// @vitest-environment happy-dom
/**
 * The business page's components (directory/detail: BusinessView, BusinessHours,
 * ReviewsPanel). The server renders them with no client code; these pin what they show for
 * a complete and a sparse business, and the Invoker Command buttons that open the page's
 * dialogs (opening them is the browser's, see tests/e2e/directory-detail.spec.ts).
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  BusinessDetail,
  BusinessHeader,
  BusinessNotFound,
  RatingSummary,
} from "../../../src/islands/directory/detail/BusinessView.tsx";
import {
  HoursTable,
  OpenNow,
  ServiceArea,
  timeZoneName,
} from "../../../src/islands/directory/detail/BusinessHours.tsx";
import ReviewsPanel, {
  NO_REVIEWS,
  ReviewItem,
  ReviewList,
} from "../../../src/islands/directory/detail/ReviewsPanel.tsx";
import { dialogId } from "../../../src/lib/dialogs.ts";
import { NOT_FOUND, NO_REVIEWS_YET, ratingLabel } from "../../../src/lib/directory.ts";
import { OPEN_TEXT } from "../../../src/lib/hours.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { toPublicReview, type PublicReview, type Review } from "../../../src/lib/schemas/review.ts";
import { telHref } from "../../../src/lib/site.ts";
import { CLAIM_LINK_LABEL } from "../../../src/lib/owner-links.ts";
import "../../helpers/islands.ts";

const FULL: Business = {
  id: "biz-001",
  name: "Balcones Canopy Works",
  slug: "balcones-canopy-works-austin",
  description: "Looks after Central Austin's oldest live oaks.",
  city: "Austin",
  state: "TX",
  zipCode: "78703",
  address: "2817 Limestone Bend",
  phone: "(512) 555-0142",
  email: "office@balconescanopy.example.com",
  website: "https://balconescanopy.example.com/",
  rating: "4.8",
  reviewCount: 12,
  isFeatured: true,
  services: ["Tree Trimming", "Tree Removal"],
  specialties: ["Heritage oaks"],
  serviceAreas: ["Tarrytown", "Westlake"],
  images: ["/images/directory/oak-1.svg", "/images/directory/crew-1.svg"],
  businessHours: { monday: "7:00 AM - 5:00 PM", saturday: "8:00 AM - 12:00 PM", sunday: "" },
  yearsInBusiness: 18,
  licenseNumber: "ISA TX-1695A",
  insuranceDetails: "$2M general liability",
  timeZone: "America/Chicago",
};

const SPARSE: Business = {
  ...FULL,
  id: "biz-002",
  name: "Riverside Limb",
  phone: undefined,
  email: undefined,
  website: undefined,
  licenseNumber: undefined,
  insuranceDetails: undefined,
  images: [],
  specialties: [],
  serviceAreas: [],
  isFeatured: false,
  locality: "Round Rock",
  yearsInBusiness: 1,
  address: "",
};

/** Monday 2 March 2026, 10:00 and 22:00 in Texas. */
const MONDAY_10AM = Date.UTC(2026, 2, 2, 16);
const MONDAY_10PM = Date.UTC(2026, 2, 3, 4);

const review = (fields: Partial<PublicReview>): PublicReview => ({
  id: "rev_1",
  customerName: "Alex",
  rating: 4,
  title: "",
  reviewText: "",
  serviceType: "",
  isVerified: false,
  createdAt: "2026-03-01T12:00:00.000Z",
  ...fields,
});

describe("business page", () => {
  it("shows every section of a complete business, with its contacts as links", () => {
    render(
      <BusinessDetail business={FULL} reviews={<ReviewsPanel business={FULL} reviews={[]} />} now={MONDAY_10AM} />,
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(FULL.name);
    expect(screen.getByText("Featured")).toBeTruthy();
    expect(screen.getByRole("img", { name: ratingLabel(FULL.rating) })).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "Specialties" })).getByText("Heritage oaks")).toBeTruthy();
    for (const title of [
      "About",
      "Photos",
      "Services Offered",
      "Contact Information",
      "Business Hours",
      "Service Areas",
      "Credentials",
      "Customer Reviews",
    ])
      expect(screen.getByRole("heading", { level: 2, name: title })).toBeTruthy();
    expect(screen.getByText("18 years in business")).toBeTruthy();
    expect(screen.getByText("2 photos")).toBeTruthy();
    expect(screen.getByRole("img", { name: `${FULL.name}, photo 2 of 2` })).toBeTruthy();
    const contact = screen.getByRole("region", { name: "Contact Information" });
    expect(within(contact).getByRole("link", { name: FULL.phone }).getAttribute("href")).toBe(telHref(FULL.phone!));
    expect(within(contact).getByRole("link", { name: FULL.email }).getAttribute("href")).toBe(`mailto:${FULL.email}`);
    const site = within(contact).getByRole("link", { name: /opens in a new tab/ });
    expect(site.textContent).toBe("balconescanopy.example.com (opens in a new tab)");
    expect(site.getAttribute("target")).toBe("_blank");
    expect(site.getAttribute("rel")).toContain("noopener");
    expect(within(contact).getByText(/2817 Limestone Bend/)).toBeTruthy();
    expect(screen.getByText(FULL.licenseNumber!)).toBeTruthy();
    expect(screen.getByRole("link", { name: `Call Now ${FULL.phone}` }).getAttribute("href")).toBe(
      telHref(FULL.phone!),
    );
  });

  it("Book Service and Write Review are buttons that name the page's dialogs", () => {
    render(
      <BusinessDetail business={FULL} reviews={<ReviewsPanel business={FULL} reviews={[]} />} now={MONDAY_10AM} />,
    );
    for (const [name, kind] of [
      ["Book Service", "booking"],
      ["Write Review", "review"],
    ] as const) {
      const button = screen.getByRole("button", { name });
      expect(button.getAttribute("command")).toBe("show-modal");
      expect(button.getAttribute("commandfor")).toBe(dialogId(kind));
      expect(button.getAttribute("aria-haspopup")).toBe("dialog");
    }
    expect(screen.queryByRole("link", { name: /Book Service|Write Review/ })).toBeNull();
  });

  it("leaves out what a sparse business does not have", () => {
    render(<BusinessDetail business={SPARSE} reviews={null} now={MONDAY_10AM} />);
    expect(screen.queryByText("Featured")).toBeNull();
    expect(screen.queryByRole("list", { name: "Specialties" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Credentials" })).toBeNull();
    expect(screen.queryByRole("link", { name: /Call Now/ })).toBeNull();
    expect(screen.getByText("No photos yet.")).toBeTruthy();
    expect(screen.getByText("1 year in business")).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Areas served" })).toBeNull();
    expect(screen.getByText("Round Rock, TX (Austin area)")).toBeTruthy();
    const contact = screen.getByRole("region", { name: "Contact Information" });
    // Only directions, to its point (no street address).
    expect(
      within(contact)
        .getAllByRole("link")
        .map((a) => a.getAttribute("data-testid")),
    ).toEqual(["directions"]);
  });

  it("the header gives the response figures and links to how they are measured, once there are any", () => {
    render(
      <BusinessHeader
        business={{ ...FULL, responseRate: 90, responseMinutes: 12, responseOffers: 50, responseCount: 70 }}
      />,
    );
    const header = screen.getByRole("heading", { level: 1 }).closest("section")!;
    expect(within(header).getByTestId("response-time").textContent).toBe(
      "Responds to 90% of requests · usually within 15 minutes · last 50 requests",
    );
    expect(within(header).getByRole("link", { name: "How we measure response" }).getAttribute("href")).toBe(
      "/how-reviews-work#response",
    );
    cleanup();
    render(
      <BusinessDetail business={{ ...FULL, responseCount: 2, responseOffers: 4 }} reviews={null} now={MONDAY_10AM} />,
    );
    expect(screen.queryByTestId("response-time")).toBeNull();
    expect(screen.queryByText(/Responds to/)).toBeNull();
    expect(screen.queryByRole("link", { name: "How we measure response" })).toBeNull();
  });

  it("the header's rating is marked for the live update", () => {
    render(<RatingSummary business={FULL} live />);
    const summary = document.querySelector(`[data-live-summary="${FULL.id}"]`)!;
    expect(summary.querySelector("[data-live-rating]")!.textContent).toBe("4.8");
    expect(summary.querySelector("[data-live-count]")!.textContent).toBe("12 reviews");
    render(<BusinessHeader business={SPARSE} />);
    expect(document.querySelector(`[data-live-summary="${SPARSE.id}"]`)).toBeNull();
  });

  it('no reviews: "No reviews yet", no "0.0" and no stars shown; the first live review shows them', async () => {
    const { container } = render(<BusinessHeader business={{ ...SPARSE, rating: "0.0", reviewCount: 0 }} live />);
    const summary = container.querySelector<HTMLElement>(`[data-live-summary="${SPARSE.id}"]`)!;
    expect(screen.getByTestId("no-reviews").textContent).toBe(NO_REVIEWS_YET);
    expect(screen.getByTestId("no-reviews").hidden).toBe(false);
    // Not even in hidden markup: the stars wait hidden, empty, for a review posted from the page.
    expect(container.innerHTML).not.toContain("0.0");
    expect(summary.querySelector<HTMLElement>("[data-live-rated]")!.hidden).toBe(true);
    expect(screen.queryByRole("img", { name: /Rated/ })).toBeNull();
  });

  it("directions open Google Maps in a new tab, to the address (or the point without one)", () => {
    render(<BusinessDetail business={FULL} reviews={null} now={MONDAY_10AM} />);
    const link = screen.getByRole("link", { name: `Get directions to ${FULL.name} (opens Google Maps in a new tab)` });
    expect(link.getAttribute("href")).toBe(
      `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent("2817 Limestone Bend, Austin, TX 78703")}`,
    );
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toContain("noopener");
    cleanup();
    render(
      <BusinessDetail business={{ ...SPARSE, location: { lat: 30.5, lng: -97.7 } }} reviews={null} now={MONDAY_10AM} />,
    );
    expect(screen.getByTestId("directions").getAttribute("href")).toBe(
      "https://www.google.com/maps/dir/?api=1&destination=30.5%2C-97.7",
    );
  });

  it("the header says how far the business is from the place searched, when there is one", () => {
    render(
      <BusinessDetail
        business={FULL}
        reviews={null}
        now={MONDAY_10AM}
        distance={{ miles: 3.24, label: "Round Rock, TX 78664" }}
      />,
    );
    expect(screen.getByTestId("business-distance").textContent).toBe("3.2 mi from Round Rock, TX 78664");
    cleanup();
    render(<BusinessDetail business={FULL} reviews={null} now={MONDAY_10AM} />);
    expect(screen.queryByTestId("business-distance")).toBeNull();
  });

  it("every business page links its owner to its claim form", () => {
    render(<BusinessDetail business={SPARSE} reviews={null} now={MONDAY_10AM} />);
    const claim = screen.getByRole("link", { name: CLAIM_LINK_LABEL });
    expect(claim.getAttribute("href")).toBe(`/owner/claim/${SPARSE.slug}`);
  });

  it("an unknown business says so with the way back", () => {
    render(<BusinessNotFound />);
    expect(screen.getByRole("heading", { name: NOT_FOUND.title })).toBeTruthy();
    expect(screen.getByRole("link", { name: NOT_FOUND.link }).getAttribute("href")).toBe("/directory");
  });
});

describe("hours", () => {
  it.each([
    [MONDAY_10AM, OPEN_TEXT.open],
    [MONDAY_10PM, OPEN_TEXT.closed],
  ])("at %s the badge says %s", (now, text) => {
    render(<OpenNow business={FULL} now={now} />);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it("a business open around the clock is Open 24/7", () => {
    const always = {
      monday: "Open 24 hours",
      tuesday: "Open 24 hours",
      wednesday: "Open 24 hours",
      thursday: "Open 24 hours",
      friday: "Open 24 hours",
      saturday: "Open 24 hours",
      sunday: "Open 24 hours",
    };
    render(<OpenNow business={{ businessHours: always }} now={MONDAY_10PM} />);
    expect(screen.getByText(OPEN_TEXT.always)).toBeTruthy();
  });

  it("by appointment with no hours: the badge and the hours say By appointment, never Closed or open now", () => {
    const appointment = { businessHours: {}, byAppointment: true };
    render(<OpenNow business={appointment} now={MONDAY_10AM} />);
    expect(screen.getByText(OPEN_TEXT.appointment)).toBeTruthy();
    cleanup();
    render(<HoursTable business={appointment} now={MONDAY_10AM} />);
    expect(screen.queryByRole("term")).toBeNull();
    expect(screen.queryByText(/Closed/)).toBeNull();
    expect(screen.getByText(/^By appointment/)).toBeTruthy();
    cleanup();
    // With hours as well: the hours, and the appointment line beside them.
    render(<HoursTable business={{ ...FULL, byAppointment: true }} now={MONDAY_10AM} />);
    expect(screen.getAllByRole("term")).toHaveLength(7);
    expect(screen.getByText("Also by appointment.")).toBeTruthy();
  });

  it("years in business shows only when the business gave it", () => {
    const { yearsInBusiness: _gone, ...unknown } = SPARSE;
    render(<BusinessDetail business={unknown} reviews={null} now={MONDAY_10AM} />);
    expect(screen.queryByText(/in business/)).toBeNull();
  });

  it("lists Monday to Sunday with Closed days, marks today for screen readers, and names the time zone", () => {
    render(<HoursTable business={FULL} now={MONDAY_10AM} />);
    const terms = screen.getAllByRole("term").map((t) => t.textContent);
    expect(terms).toEqual(["Monday (today)", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]);
    expect(screen.getAllByRole("definition").map((d) => d.textContent)).toEqual([
      "7:00 AM - 5:00 PM",
      "Closed",
      "Closed",
      "Closed",
      "Closed",
      "8:00 AM - 12:00 PM",
      "Closed",
    ]);
    expect(screen.getByText(`Times are ${timeZoneName("America/Chicago")}.`)).toBeTruthy();
    expect(timeZoneName("Not/AZone")).toBe("Not/AZone");
  });

  it("the service area lists the towns served", () => {
    render(<ServiceArea business={FULL} />);
    expect(within(screen.getByRole("list", { name: "Areas served" })).getAllByRole("listitem")).toHaveLength(2);
    expect(screen.getByText("Austin, TX")).toBeTruthy();
  });
});

describe("reviews", () => {
  it("without reviews it invites the first", () => {
    render(<ReviewsPanel business={FULL} reviews={[]} />);
    expect(screen.getByText(NO_REVIEWS)).toBeTruthy();
  });

  it("each review: stars in words, name, Verified, service, title, text as text, date", () => {
    render(
      <ReviewList
        businessName={FULL.name}
        reviews={[
          review({
            id: "a",
            isVerified: true,
            serviceType: "Tree Removal",
            title: "On time",
            reviewText: "<b>Tidy</b>",
          }),
          review({ id: "b", customerName: "Blair", rating: 2 }),
        ]}
      />,
    );
    const items = within(screen.getByRole("list", { name: `Reviews of ${FULL.name}` })).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole("img", { name: ratingLabel(4) })).toBeTruthy();
    expect(within(items[0]!).getByText("Verified")).toBeTruthy();
    expect(within(items[0]!).getByText("Tree Removal")).toBeTruthy();
    expect(within(items[0]!).getByRole("heading", { name: "On time" })).toBeTruthy();
    expect(within(items[0]!).getByText("<b>Tidy</b>")).toBeTruthy();
    expect(items[0]!.querySelector("b")).toBeNull();
    expect(within(items[0]!).getByText("Mar 1, 2026").getAttribute("datetime")).toBe("2026-03-01T12:00:00.000Z");
    expect(within(items[0]!).queryByText("Unverified")).toBeNull();
    expect(within(items[1]!).queryByText("Verified")).toBeNull();
    // Shown as unverified, neutrally: a plain line, not a badge.
    expect(within(items[1]!).getByText("Unverified").className).not.toContain("badge");
    expect(within(items[1]!).queryByRole("heading")).toBeNull();
  });

  it("the owner's reply shows under its review, as text, with its date and (edited) once edited", () => {
    render(
      <ReviewList
        businessName="Oak & Sons"
        reviews={[
          review({
            id: "a",
            reply: { text: "Thanks, <i>Alex</i>!\nSee you in spring.", createdAt: "2026-03-02T12:00:00.000Z" },
          }),
          review({
            id: "b",
            reply: {
              text: "We fixed it.",
              createdAt: "2026-03-02T12:00:00.000Z",
              editedAt: "2026-03-09T12:00:00.000Z",
            },
          }),
          review({ id: "c" }),
        ]}
      />,
    );
    const items = within(screen.getByRole("list", { name: "Reviews of Oak & Sons" })).getAllByRole("listitem");
    const first = items[0]!.querySelector<HTMLElement>("[data-owner-reply]")!;
    expect(within(first).getByText("Response from Oak & Sons")).toBeTruthy();
    expect(first.textContent).toContain("Thanks, <i>Alex</i>!\nSee you in spring.");
    expect(first.querySelector("i")).toBeNull();
    expect(within(first).getByText("Mar 2, 2026").getAttribute("datetime")).toBe("2026-03-02T12:00:00.000Z");
    expect(first.textContent).not.toContain("edited");

    const second = items[1]!.querySelector<HTMLElement>("[data-owner-reply]")!;
    expect(second.textContent).toContain("We fixed it.");
    expect(within(second).getByText("Mar 9, 2026").getAttribute("datetime")).toBe("2026-03-09T12:00:00.000Z");
    expect(second.textContent).toMatch(/Mar 9, 2026 \(edited\)$/);
    expect(items[2]!.querySelector("[data-owner-reply]")).toBeNull();
  });

  it("without the business's name the reply is the owner's", () => {
    render(<ReviewItem review={review({ reply: { text: "Thanks!", createdAt: "2026-03-02T12:00:00.000Z" } })} />);
    expect(screen.getByText("Response from the owner")).toBeTruthy();
  });

  it("a hidden review shows no reply: the public copy drops it, and the placeholder would not draw one", () => {
    const reply = { text: "Secret answer", createdAt: "2026-03-02T12:00:00.000Z" };
    const placeholder = { hidden: true, hiddenReason: "duplicate" } as const;
    const stored: Review = { ...review({ id: "h", reply }), customerEmail: "alex@example.com", ...placeholder };
    const shown = toPublicReview(stored);
    expect(shown).not.toHaveProperty("reply");
    render(<ReviewList businessName={FULL.name} reviews={[shown, review({ id: "h2", reply, ...placeholder })]} />);
    for (const item of screen.getAllByRole("listitem")) {
      expect(item.textContent).toBe("Hidden: duplicate");
      expect(item.querySelector("[data-owner-reply]")).toBeNull();
    }
  });

  it("a hidden review keeps its place as 'Hidden: reason' only (no name, no stars); the section links to how reviews work", () => {
    render(
      <ReviewsPanel
        business={FULL}
        reviews={[
          {
            ...review({ id: "h" }),
            hidden: true,
            hiddenReason: "not-about-this-business",
            customerName: "",
            rating: 0,
          },
          review({ id: "b", customerName: "Blair", rating: 2 }),
        ]}
      />,
    );
    const items = within(screen.getByRole("list", { name: `Reviews of ${FULL.name}` })).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toBe("Hidden: not about this business");
    expect(within(items[0]!).queryByRole("img")).toBeNull();
    expect(screen.getByRole("link", { name: "How reviews work" }).getAttribute("href")).toBe("/how-reviews-work");
  });
});

describe("credentials on the business page", () => {
  const CHECK = { checkedAt: "2026-02-20T16:00:00.000Z" };
  const credentialsSection = () => screen.getByRole("region", { name: "Credentials" });

  it("the operator's free text is the business's own words, never a badge", () => {
    render(<BusinessDetail business={FULL} reviews={null} now={MONDAY_10AM} />);
    const section = credentialsSection();
    expect(within(section).getByText("As stated by the business")).toBeTruthy();
    expect(within(section).getByText(FULL.licenseNumber!)).toBeTruthy();
    expect(within(section).queryByRole("list", { name: "Checked by Treeline" })).toBeNull();
    // The site's spelling (US English), as in the badges.
    expect(within(section).getByText("License")).toBeTruthy();
    expect(within(section).queryByText("Licence")).toBeNull();
  });

  it("a kind the business states in the structured form never shows its old text, checked or not", () => {
    // A checked licence: its badge, and not the old licence text beside it; old insurance text stays.
    render(
      <BusinessDetail
        business={{ ...FULL, credentials: { licence: { state: "MD", type: "LTE", number: "1234", check: CHECK } } }}
        reviews={null}
        now={MONDAY_10AM}
      />,
    );
    let section = credentialsSection();
    expect(
      within(section).getByText("License MD LTE #1234, checked by Treeline on Feb 20, 2026", { exact: false }),
    ).toBeTruthy();
    expect(within(section).queryByText(FULL.licenseNumber!)).toBeNull();
    expect(within(section).getByText(FULL.insuranceDetails!)).toBeTruthy();
    cleanup();

    // Unchecked insurance: no badge, and the old insurance text is gone too.
    render(
      <BusinessDetail
        business={{
          ...FULL,
          credentials: { insurance: { carrier: "Acme Mutual", coverUsd: 2_000_000, expiresOn: "2099-03-01" } },
        }}
        reviews={null}
        now={MONDAY_10AM}
      />,
    );
    section = credentialsSection();
    expect(within(section).queryByText(FULL.insuranceDetails!)).toBeNull();
    expect(within(section).queryByText("Insurance")).toBeNull();
    expect(within(section).getByText(FULL.licenseNumber!)).toBeTruthy();
  });

  it("an unchecked licence shows nothing; a checked one the exact badge; expired insurance none", () => {
    const stated: Business = {
      ...SPARSE,
      credentials: {
        licence: { state: "MD", type: "LTE", number: "1234" },
        insurance: { carrier: "Acme Mutual", coverUsd: 2_000_000, expiresOn: "2026-03-01", check: CHECK },
      },
    };
    render(<BusinessDetail business={stated} reviews={null} now={MONDAY_10AM} />);
    expect(screen.queryByRole("region", { name: "Credentials" })).toBeNull();
    cleanup();

    const checked: Business = {
      ...stated,
      credentials: {
        licence: { ...stated.credentials!.licence!, check: CHECK },
        insurance: { ...stated.credentials!.insurance!, expiresOn: "2026-03-02" },
      },
    };
    render(<BusinessDetail business={checked} reviews={null} now={MONDAY_10AM} />);
    const badges = within(within(credentialsSection()).getByRole("list", { name: "Checked by Treeline" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent?.trim());
    expect(badges).toEqual([
      "License MD LTE #1234, checked by Treeline on Feb 20, 2026",
      "Insured: $2,000,000 general liability (Acme Mutual), checked by Treeline on Feb 20, 2026",
    ]);
    expect(within(credentialsSection()).queryByText("As stated by the business")).toBeNull();
  });
});
