/**
 * The three providers /find-a-tree-service shows: directory businesses, named by id in
 * content/find-pros/providers.json and read from the directory's seed
 * (content/directory/businesses.json) at build time, so their name, phone, rating and
 * services are the ones their directory page shows. Build-time only (the page is static):
 * the seed file must not reach the browser.
 */
import providerIds from "../../content/find-pros/providers.json";
import seed from "../../content/directory/businesses.json";
import { PRO_SERVICES } from "./options.ts";
import type { Credentials } from "./schemas/credentials.ts";

/** One provider card. */
export interface SampleProvider {
  /** Directory id, e.g. "biz-001". */
  id: string;
  /** Its directory page, /directory/{slug}. */
  slug: string;
  name: string;
  /** "Round Rock, TX" (its town) or "Austin, TX". */
  location: string;
  /** Mean of its seed reviews, one decimal as a number (4.7). */
  rating: number;
  reviews: number;
  /** Its services that the find-pros form offers, in its own order. */
  services: string[];
  phone: string;
  /**
   * Its license was checked by Treeline (in the seed's credentials). The seed's free-text
   * `licenseNumber` is the business's own claim and does not count: nobody checked it.
   */
  certified: boolean;
  /** "24/7 emergency service" or "{n} years in business"; absent when neither is known. */
  highlight?: string;
  /** The first sentence of its directory description. */
  description: string;
  /** A sample business (the demo directory): its card says "Sample listing". */
  isSample: boolean;
}

type SeedEntry = (typeof seed)[number] & {
  locality?: string;
  licenseNumber?: string;
  credentials?: Credentials;
  emergency247?: boolean;
  phone?: string;
  isSample?: boolean;
};

const OFFERED = new Set<string>(PRO_SERVICES.map((s) => s.value));

/** The providers, in providers.json order; throws (fails the build) for an unknown id or one without a phone. */
export function sampleProviders(): SampleProvider[] {
  return (providerIds as { id: string }[]).map(({ id }) => {
    const b = (seed as SeedEntry[]).find((entry) => entry.id === id);
    if (!b) throw new Error(`providers.json: ${id} is not a directory business`);
    if (!b.phone) throw new Error(`providers.json: ${id} has no phone`);
    const sum = b.reviews.reduce((total, r) => total + (r.rating ?? 5), 0);
    const count = b.reviews.length;
    if (count === 0) throw new Error(`providers.json: ${id} has no reviews`);
    return {
      id: b.id,
      slug: b.slug,
      name: b.name,
      location: `${b.locality ?? b.city}, ${b.state ?? "TX"}`,
      rating: Math.floor((sum * 10) / count + 0.5) / 10,
      reviews: count,
      services: b.services.filter((s) => OFFERED.has(s)),
      phone: b.phone,
      certified: Boolean(b.credentials?.licence?.check),
      highlight: b.emergency247
        ? "24/7 emergency service"
        : b.yearsInBusiness
          ? `${b.yearsInBusiness} ${b.yearsInBusiness === 1 ? "year" : "years"} in business`
          : undefined,
      // Its first sentence ("Co." and "St." are no sentence ends).
      description: /^.*?[a-z]{2}[.!?](?=\s|$)/s.exec(b.description)?.[0] ?? b.description,
      isSample: b.isSample === true,
    };
  });
}
