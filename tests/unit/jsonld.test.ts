import { describe, expect, it } from "vitest";
import { businessJsonLd, jsonLdScript, licenceCredential, openingHours, to24h } from "../../src/lib/jsonld.ts";
import { filledStars, hoursRows, reviewCountText } from "../../src/lib/directory.ts";
import type { Business } from "../../src/lib/schemas/business.ts";

const business: Business = {
  id: "biz-1",
  name: "Oak & Elm </script> Co.",
  slug: "oak-elm",
  description: "Tree care.",
  city: "Austin",
  state: "TX",
  zipCode: "78701",
  address: "1 Main St",
  phone: "(512) 555-0100",
  rating: "4.5",
  reviewCount: 2,
  isFeatured: false,
  services: ["Tree Trimming"],
  specialties: [],
  serviceAreas: ["Hyde Park"],
  images: ["/images/directory/oak-1.svg"],
  businessHours: { monday: "7:00 AM - 5:30 PM", tuesday: "Open 24 hours", wednesday: "by appointment", sunday: "" },
  yearsInBusiness: 3,
};

describe("to24h", () => {
  it.each([
    ["7:00 AM", "07:00"],
    ["12:00 PM", "12:00"],
    ["12:30 AM", "00:30"],
    ["5:30 pm", "17:30"],
    ["9 AM", "09:00"],
    ["13:00 PM", null],
    ["noon", null],
  ])("%s -> %s", (input, expected) => expect(to24h(input)).toBe(expected));
});

describe("openingHours", () => {
  it("keeps parseable days, 24-hour days, and drops free text and closed days", () => {
    expect(openingHours(business.businessHours)).toEqual([
      { "@type": "OpeningHoursSpecification", dayOfWeek: "Monday", opens: "07:00", closes: "17:30" },
      { "@type": "OpeningHoursSpecification", dayOfWeek: "Tuesday", opens: "00:00", closes: "23:59" },
    ]);
  });
});

describe("businessJsonLd", () => {
  const reviews = [
    {
      id: "r1",
      customerName: "Ann",
      rating: 5,
      title: "Great",
      reviewText: "Fast",
      serviceType: "",
      isVerified: true,
      createdAt: "2026-01-02T10:00:00.000Z",
    },
  ];
  it("describes the business with its rating and reviews", () => {
    const data = businessJsonLd(business, reviews, "https://treeline.example/directory/oak-elm");
    expect(data).toMatchObject({
      "@type": "LocalBusiness",
      telephone: "(512) 555-0100",
      image: ["https://treeline.example/images/directory/oak-1.svg"],
      aggregateRating: { ratingValue: "4.5", reviewCount: 2 },
      review: [{ author: { name: "Ann" }, datePublished: "2026-01-02", reviewRating: { ratingValue: 5 } }],
    });
  });
  it("a hidden review's placeholder is no review in the JSON-LD", () => {
    const placeholder = { ...reviews[0]!, id: "h", hidden: true, hiddenReason: "duplicate" as const, rating: 0 };
    const data = businessJsonLd(business, [placeholder, ...reviews], "https://treeline.example/directory/oak-elm");
    expect(data.review).toHaveLength(reviews.length);
  });

  it("an owner's reply is the business's words, not the review's: it stays out of the JSON-LD", () => {
    const replied = { ...reviews[0]!, reply: { text: "Owner answer here", createdAt: "2026-03-02T12:00:00.000Z" } };
    const data = businessJsonLd(business, [replied], "https://treeline.example/directory/oak-elm");
    expect(data.review).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain("Owner answer here");
  });

  it("a sample business's reviews are not presented as real: no rating, no reviews", () => {
    const data = businessJsonLd({ ...business, isSample: true }, reviews, "https://treeline.example/directory/oak-elm");
    expect(data).toMatchObject({ "@type": "LocalBusiness", name: business.name });
    expect(data.aggregateRating).toBeUndefined();
    expect(data.review).toBeUndefined();
    expect(JSON.stringify(data)).not.toContain("Fast");
  });

  it("leaves the rating out when there are no reviews", () => {
    const data = businessJsonLd(
      { ...business, rating: "0.0", reviewCount: 0 },
      [],
      "https://treeline.example/directory/oak-elm",
    );
    expect(data.aggregateRating).toBeUndefined();
    expect(data.review).toBeUndefined();
  });
  it("cannot close its script element", () => {
    const text = jsonLdScript(businessJsonLd(business, reviews, "https://treeline.example/x"));
    expect(text).not.toContain("</script>");
    expect(JSON.parse(text).name).toBe(business.name);
  });
});

describe("presentation rules", () => {
  it("filled stars are the floor of the rating", () => {
    expect([filledStars("4.9"), filledStars("4.0"), filledStars("0.0"), filledStars(5), filledStars("junk")]).toEqual([
      4, 4, 0, 5, 0,
    ]);
  });
  it("hours run Monday to Sunday with Closed for empty days", () => {
    const rows = hoursRows(business.businessHours);
    expect(rows.map((r) => r.label)).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    expect(rows.at(-1)!.hours).toBe("Closed");
    expect(rows[3]!.hours).toBe("Closed");
  });
  it("review counts read naturally", () => {
    expect([reviewCountText(0), reviewCountText(1), reviewCountText(2)]).toEqual([
      "0 reviews",
      "1 review",
      "2 reviews",
    ]);
  });
});

describe("hasCredential", () => {
  const licence = { state: "CA", type: "C-49", number: "1012345" };
  const url = "https://treeline.example/directory/oak-elm";

  it("only a licence the operator checked; never insurance", () => {
    const unchecked = businessJsonLd({ ...business, credentials: { licence } }, [], url);
    expect(unchecked).not.toHaveProperty("hasCredential");
    const checked = businessJsonLd(
      {
        ...business,
        credentials: {
          licence: { ...licence, check: { checkedAt: "2026-11-28T16:00:00Z" } },
          insurance: {
            carrier: "Acme",
            coverUsd: 1,
            expiresOn: "2030-01-01",
            check: { checkedAt: "2026-11-28T16:00:00Z" },
          },
        },
      },
      [],
      url,
    );
    expect(checked.hasCredential).toEqual([
      {
        "@type": "EducationalOccupationalCredential",
        credentialCategory: "license",
        name: "California C-49 Tree and Palm contractor",
        identifier: "1012345",
        recognizedBy: { "@type": "Organization", name: "California Contractors State License Board (CSLB)" },
      },
    ]);
    expect(JSON.stringify(checked)).not.toContain("Acme");
  });

  it("a licence from a state without one for tree work names no authority", () => {
    const other = { state: "TX", type: "OTHER", number: "TX-1", check: { checkedAt: "2026-11-28T16:00:00Z" } };
    expect(licenceCredential({ credentials: { licence: other } })).toEqual({
      "@type": "EducationalOccupationalCredential",
      credentialCategory: "license",
      name: "Texas State or local license",
      identifier: "TX-1",
    });
  });
});
