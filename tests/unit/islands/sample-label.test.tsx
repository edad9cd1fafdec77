// @vitest-environment happy-dom
/**
 * A sample business (`isSample`, the demo directory) says so wherever it is shown: its
 * directory card (server render and island alike), its business page's header, the matches a
 * request was offered to (the find-pros island and the no-JS confirmation), and the owner's and
 * operator's views; the list and the match replies carry the mark through. A real business
 * shows no such label.
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { BusinessCard } from "../../../src/islands/directory/list/BusinessCard.tsx";
import { BusinessHeader } from "../../../src/islands/directory/detail/BusinessView.tsx";
import { Confirmation } from "../../../src/islands/find-pros/Confirmation.tsx";
import { toListBusiness } from "../../../src/lib/directory-list.ts";
import { readMatches } from "../../../src/lib/offers.ts";
import { receiptOf } from "../../../src/lib/receipt.ts";
import { SAMPLE_BUSINESS_NOTICE, SAMPLE_LISTING } from "../../../src/lib/sample.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { MatchList } from "../../../src/views/leads/Matches.tsx";
import { listBusiness } from "../../helpers/businesses.ts";
import "../../helpers/islands.ts";

afterEach(cleanup);

const BUSINESS: Business = {
  ...listBusiness(3),
  zipCode: "78701",
  address: "1 Main St",
  specialties: [],
  serviceAreas: [],
  images: [],
  yearsInBusiness: 4,
  businessHours: {},
};

describe("Sample listing", () => {
  it("is the label's one wording", () => {
    expect(SAMPLE_LISTING).toBe("Sample listing");
  });

  it("marks a sample business's card, and only a sample's", () => {
    render(
      <ul>
        <BusinessCard business={listBusiness(1, { isSample: true })} />
        <BusinessCard business={listBusiness(2)} />
      </ul>,
    );
    const [sample, real] = screen.getAllByTestId("business-card");
    expect(within(sample!).getByText(SAMPLE_LISTING)).toBeTruthy();
    expect(within(real!).queryByText(SAMPLE_LISTING)).toBeNull();
  });

  it("is in the card's server HTML too (the directory page's render, before any script)", () => {
    const html = renderToStaticMarkup(
      <ul>
        <BusinessCard business={listBusiness(1, { isSample: true })} now={0} />
      </ul>,
    );
    expect(html).toContain(SAMPLE_LISTING);
  });

  it("the list keeps the mark from the server's page and from the API's answer", () => {
    expect(toListBusiness({ ...listBusiness(1), isSample: true }).isSample).toBe(true);
    expect("isSample" in toListBusiness(listBusiness(2))).toBe(false);
  });

  it("the business page's header says it is a sample listing, with what that means", () => {
    const html = renderToStaticMarkup(<BusinessHeader business={{ ...BUSINESS, isSample: true }} />);
    expect(html).toContain(SAMPLE_LISTING);
    expect(html).toContain(SAMPLE_BUSINESS_NOTICE.replace(/'/g, "&#x27;"));
    const real = renderToStaticMarkup(<BusinessHeader business={BUSINESS} />);
    expect(real).not.toContain(SAMPLE_LISTING);
  });

  it("marks sample matches in the no-JS confirmation and in the find-pros island", () => {
    const matches = readMatches({
      matches: [
        { name: "Demo Oak Care", slug: "demo-oak-care", phone: null, rating: "4.5", reviewCount: 2, isSample: true },
        { name: "Real Tree Co", slug: "real-tree-co", phone: null, rating: "4.0", reviewCount: 1 },
      ],
    });
    expect(matches.map((m) => m.isSample ?? false)).toEqual([true, false]);

    render(<MatchList matches={matches} />);
    const items = screen.getAllByRole("listitem");
    expect(within(items[0]!).getByText(SAMPLE_LISTING)).toBeTruthy();
    expect(within(items[1]!).queryByText(SAMPLE_LISTING)).toBeNull();
    cleanup();

    render(
      <Confirmation
        matches={matches.map((m) => ({ ...m, rating: Number(m.rating) }))}
        receipt={receiptOf({ reference: "TL-1234" })}
        name="Ann"
        location="78701"
        onReset={() => {}}
      />,
    );
    const found = screen.getByTestId("find-pros-confirmation");
    expect(within(found).getAllByText(SAMPLE_LISTING)).toHaveLength(1);
  });
});
