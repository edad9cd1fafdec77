/**
 * schema.org markup for a business page, so search engines can show the rating and
 * reviews. Only data the page itself shows goes in (Google's rule for review snippets). A
 * sample business (`isSample`, a demo) gets no rating or reviews in it: its reviews are samples,
 * and structured data cannot carry the page's "Sample listing".
 */
import type { Business } from "./schemas/business.ts";
import type { PublicReview } from "./schemas/review.ts";
import { siteUrl } from "./env.ts";
import { SITE } from "./site.ts";
import { WEEKDAYS, type Weekday } from "./options.ts";
import { licenceName, licensingState } from "./credentials/state-rules.ts";
import { upcomingClosedDates } from "./holidays.ts";
import { DEFAULT_TIME_ZONE, clockMinutes, localTime } from "./hours.ts";

const DAY_NAMES: Record<Weekday, string> = {
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
  sunday: "Sunday",
};

/** "7:00 AM" -> "07:00"; null when the text is not a clock time (read by hours.ts, like the page's open state). */
export function to24h(text: string): string | null {
  const minutes = clockMinutes(text);
  if (minutes === null) return null;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Opening hours that parse as "H:MM AM - H:MM PM"; free text like "24/7 emergency" is left out. */
export function openingHours(hours: Business["businessHours"]) {
  const specs = [];
  for (const day of WEEKDAYS) {
    const text = hours[day]?.trim();
    if (!text) continue;
    if (/^(open\s*)?24\s*(hours|hrs|\/\s*7)/i.test(text)) {
      specs.push({ "@type": "OpeningHoursSpecification", dayOfWeek: DAY_NAMES[day], opens: "00:00", closes: "23:59" });
      continue;
    }
    const [from, to] = text.split(/\s*[-–]\s*/);
    const opens = from ? to24h(from) : null;
    const closes = to ? to24h(to) : null;
    if (opens && closes) specs.push({ "@type": "OpeningHoursSpecification", dayOfWeek: DAY_NAMES[day], opens, closes });
  }
  return specs;
}

/**
 * A licence the operator has checked, as schema.org's credential; nothing for an unchecked one.
 * Insurance has no schema.org property and stays out (the page's badge says it).
 */
export function licenceCredential(business: Pick<Business, "credentials">): Record<string, unknown> | null {
  const licence = business.credentials?.licence;
  if (!licence?.check) return null;
  const authority = licensingState(licence.state)?.authority;
  return {
    "@type": "EducationalOccupationalCredential",
    credentialCategory: "license",
    name: licenceName(licence),
    identifier: licence.number,
    ...(authority ? { recognizedBy: { "@type": "Organization", name: authority } } : {}),
  };
}

/**
 * The owner's upcoming closed days (from `today`, "YYYY-MM-DD" on the business's clock) as
 * schema.org special hours: closed all day (opens = closes = 00:00, Google's documented form).
 */
export function specialClosures(business: Pick<Business, "closedDates">, today: string) {
  return upcomingClosedDates(business, today).map((d) => ({
    "@type": "OpeningHoursSpecification",
    validFrom: d.date,
    validThrough: d.date,
    opens: "00:00",
    closes: "00:00",
  }));
}

export function businessJsonLd(
  business: Business,
  reviews: readonly PublicReview[],
  pageUrl: string,
  now: number = Date.now(),
): Record<string, unknown> {
  const absolute = (src: string) => new URL(src, pageUrl).toString();
  const hours = openingHours(business.businessHours);
  const closures = specialClosures(business, localTime(now, business.timeZone ?? DEFAULT_TIME_ZONE).date);
  // A hidden review's placeholder is no review: it stays out of the structured data.
  // A sample business's reviews are not real customers' words: never presented as reviews.
  const shown = business.isSample ? [] : reviews.filter((r) => !r.hidden);
  const rated = business.reviewCount > 0 && !business.isSample;
  const licence = licenceCredential(business);
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${pageUrl}#business`,
    name: business.name,
    description: business.description,
    url: pageUrl,
    ...(business.phone ? { telephone: business.phone } : {}),
    ...(business.email ? { email: business.email } : {}),
    ...(business.website ? { sameAs: [business.website] } : {}),
    ...(business.images.length ? { image: business.images.map(absolute) } : {}),
    address: {
      "@type": "PostalAddress",
      ...(business.address ? { streetAddress: business.address } : {}),
      addressLocality: business.city,
      addressRegion: business.state,
      postalCode: business.zipCode,
      addressCountry: "US",
    },
    areaServed: business.serviceAreas.map((name) => ({ "@type": "Place", name })),
    ...(hours.length ? { openingHoursSpecification: hours } : {}),
    ...(licence ? { hasCredential: [licence] } : {}),
    ...(closures.length ? { specialOpeningHoursSpecification: closures } : {}),
    // A rating without reviews is not a rating: schema.org consumers reject a zero count.
    ...(rated
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: business.rating,
            reviewCount: business.reviewCount,
            bestRating: "5",
            worstRating: "1",
          },
        }
      : {}),
    ...(shown.length
      ? {
          review: shown.map((r) => ({
            "@type": "Review",
            author: { "@type": "Person", name: r.customerName },
            datePublished: r.createdAt.slice(0, 10),
            reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
            ...(r.title ? { name: r.title } : {}),
            ...(r.reviewText ? { reviewBody: r.reviewText } : {}),
          })),
        }
      : {}),
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no text can close the tag. */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

// ---------------------------------------------------------------------------------------
// Site-wide structured data: every page, FAQ sections, articles, nested pages.

export function organizationJsonLd(origin: string = siteUrl()): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${origin}/#organization`,
    name: SITE.name,
    url: `${origin}/`,
    logo: `${origin}/apple-touch-icon.png`,
    email: SITE.email,
    telephone: SITE.phone,
    contactPoint: [
      {
        "@type": "ContactPoint",
        telephone: SITE.phone,
        contactType: "customer service",
        availableLanguage: "English",
        hoursAvailable: "Mo-Su 00:00-23:59",
      },
    ],
  };
}

export interface Crumb {
  /** Visible name of the page. */
  name: string;
  /** Site path, e.g. "/business-growth". */
  href: string;
}

export function breadcrumbJsonLd(crumbs: readonly Crumb[], origin: string = siteUrl()): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: c.name,
      item: new URL(c.href, `${origin}/`).toString(),
    })),
  };
}

export interface FaqEntry {
  question: string;
  answer: string;
}

export function faqJsonLd(items: readonly FaqEntry[]): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: items.map((q) => ({
      "@type": "Question",
      name: q.question,
      acceptedAnswer: { "@type": "Answer", text: q.answer },
    })),
  };
}

export interface ArticleMeta {
  title: string;
  excerpt: string;
  author: string;
  /** ISO date. */
  date: string;
  /** Site path of the article. */
  href: string;
  image?: string;
}

export function articleJsonLd(a: ArticleMeta, origin: string = siteUrl()): Record<string, unknown> {
  const url = new URL(a.href, `${origin}/`).toString();
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: a.title,
    description: a.excerpt,
    author: { "@type": "Person", name: a.author },
    datePublished: a.date,
    mainEntityOfPage: url,
    url,
    image: new URL(a.image ?? "/og-default.png", `${origin}/`).toString(),
    publisher: { "@id": `${origin}/#organization` },
  };
}
