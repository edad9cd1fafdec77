/**
 * The business detail page as plain components, rendered by the server with no client
 * directive: HTML only, no framework code in the browser. Book Service is a button that
 * opens the page's prebuilt booking dialog by itself (Invoker Commands, see
 * BusinessDialogs.astro); the reviews section is passed in as `reviews`.
 */
import type { ReactNode } from "react";
import {
  NOT_FOUND,
  NO_REVIEWS_YET,
  businessPath,
  directionsUrl,
  displayUrl,
  ratingLabel,
  reviewCountText,
} from "../../../lib/directory.ts";
import type { Business } from "../../../lib/schemas/business.ts";
import { badgesOf } from "../../../lib/credentials/badges.ts";
import { todayIn } from "../../../lib/credentials/format.ts";
import { STATED_LABELS, statedText } from "../../../lib/credentials/old-text.ts";
import { formatMiles } from "../../../lib/geo/distance.ts";
import { telHref } from "../../../lib/site.ts";
import { invokerProps } from "../../../lib/dialogs.ts";
import { CLAIM_LINK_HINT, CLAIM_LINK_LABEL, claimPath } from "../../../lib/owner-links.ts";
import { Icon } from "../../../views/Icon.tsx";
import { SampleBadge } from "../../../views/SampleBadge.tsx";
import { SAMPLE_BUSINESS_NOTICE } from "../../../lib/sample.ts";
import { StarRow } from "../../Stars.tsx";
import { ResponseTime } from "../ResponseTime.tsx";
import { HoursTable, OpenNow, ServiceArea } from "./BusinessHours.tsx";

/**
 * Stars plus "4.8 (12 reviews)", or "No reviews yet" (no stars, no "0.0") before the first
 * review. `live` marks the element so that a review posted from the page updates it in
 * place (live-reviews.tsx shows the stars and hides "No reviews yet").
 */
export function RatingSummary({
  business,
  rating = business.rating,
  reviewCount = business.reviewCount,
  live = false,
  className = "",
}: {
  business: Pick<Business, "id" | "rating" | "reviewCount">;
  rating?: string;
  reviewCount?: number;
  live?: boolean;
  className?: string;
}) {
  // No "0.0" anywhere in the page, not even hidden: the first review fills these in.
  const none = reviewCount === 0;
  return (
    <span
      className={`inline-flex items-center gap-1.5 ${className}`}
      data-live-summary={live ? business.id : undefined}
    >
      <span className="text-slate-600" data-live-none="" data-testid="no-reviews" hidden={!none}>
        {NO_REVIEWS_YET}
      </span>
      <span className="inline-flex items-center gap-1.5" data-live-rated="" hidden={none}>
        <StarRow
          rating={rating}
          size="size-5"
          emptyFill="fill-slate-200"
          label={none ? NO_REVIEWS_YET : ratingLabel(rating)}
          data-live-stars=""
        />
        <span className="font-semibold text-slate-900" data-live-rating="">
          {none ? "" : Number(rating).toFixed(1)}
        </span>
        <span className="text-slate-600">
          (<span data-live-count="">{none ? "" : reviewCountText(reviewCount)}</span>)
        </span>
      </span>
    </span>
  );
}

/** How far the business is from the place searched ("3.2 mi from Round Rock, TX 78664"). */
export interface Distance {
  miles: number;
  label: string;
}

export function BusinessHeader({
  business,
  live,
  distance,
}: {
  business: Business;
  live?: boolean;
  distance?: Distance;
}) {
  return (
    <section className="bg-gradient-to-b from-forest-50 to-white">
      <div className="container-page pt-6 pb-8 sm:pt-8 sm:pb-10">
        <a href="/directory" className="link inline-flex min-h-11 items-center text-sm">
          ← Back to the directory
        </a>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl leading-tight font-bold text-forest-950 sm:text-4xl">{business.name}</h1>
          {business.isFeatured ? <span className="badge bg-amber-100 text-amber-900">Featured</span> : null}
          {business.isSample ? <SampleBadge /> : null}
        </div>
        {business.isSample ? (
          <p className="mt-2 max-w-prose text-sm text-slate-700" data-testid="sample-notice">
            {SAMPLE_BUSINESS_NOTICE}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
          <RatingSummary business={business} live={live} />
          <span className="inline-flex items-center gap-1 text-slate-700">
            <Icon name="mapPin" className="size-4 text-forest-700" /> {business.city}, {business.state}
          </span>
          {distance ? (
            <span className="font-semibold text-forest-800" data-testid="business-distance">
              {formatMiles(distance.miles)} from {distance.label}
            </span>
          ) : null}
          <ResponseTime figures={business} rulesLink className="text-slate-700" iconClass="text-forest-700" />
        </div>
        {business.specialties.length > 0 ? (
          <ul className="mt-4 flex flex-wrap gap-2" aria-label="Specialties">
            {business.specialties.map((s) => (
              <li key={s} className="badge bg-forest-100 text-forest-800">
                {s}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {business.phone ? (
            <a href={telHref(business.phone)} className="btn-primary">
              <Icon name="phone" className="size-4" /> Call Now
              <span className="sr-only"> {business.phone}</span>
            </a>
          ) : null}
          <button type="button" className="btn-outline" {...invokerProps("booking")}>
            <Icon name="calendar" className="size-4" /> Book Service
          </button>
        </div>
      </div>
    </section>
  );
}

function Section({
  id,
  title,
  children,
  aside,
}: {
  id: string;
  title: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-xl font-semibold text-forest-950">
          {title}
        </h2>
        {aside}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function About({ business }: { business: Business }) {
  return (
    <Section id="about-heading" title="About">
      <p className="whitespace-pre-line text-slate-700">{business.description}</p>
      {typeof business.yearsInBusiness === "number" && business.yearsInBusiness > 0 && (
        <p className="mt-3 inline-flex items-center gap-2 text-sm font-medium text-forest-800">
          <Icon name="award" className="size-4" /> {business.yearsInBusiness}{" "}
          {business.yearsInBusiness === 1 ? "year" : "years"} in business
        </p>
      )}
    </Section>
  );
}

/**
 * Photos keep their grid cell when an image fails: the page script (business-page.ts)
 * hides the <img> and the placeholder behind it shows.
 */
function Photos({ business }: { business: Business }) {
  const count = business.images.length;
  return (
    <Section
      id="photos-heading"
      title="Photos"
      aside={<span className="text-sm text-slate-600">{count === 1 ? "1 photo" : `${count} photos`}</span>}
    >
      {count === 0 ? (
        <p className="text-slate-600">No photos yet.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {business.images.map((src, i) => (
            <li key={`${src}-${i}`} className="relative aspect-[4/3] overflow-hidden rounded-lg bg-forest-50">
              <span
                className="absolute inset-0 flex flex-col items-center justify-center gap-1 text-forest-700"
                data-photo-placeholder=""
              >
                <Icon name="image" className="size-8" />
                <span className="text-xs">Photo unavailable</span>
              </span>
              <img
                src={src}
                alt={`${business.name}, photo ${i + 1} of ${count}`}
                loading="lazy"
                decoding="async"
                width={400}
                height={300}
                className="relative size-full bg-forest-50 object-cover"
                data-fallback=""
              />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Services({ business }: { business: Business }) {
  return (
    <Section id="services-heading" title="Services Offered">
      <ul className="grid gap-2 sm:grid-cols-2">
        {business.services.map((s) => (
          <li key={s} className="flex items-center gap-2 text-slate-800">
            <Icon name="check" className="size-4 shrink-0 text-forest-600" /> {s}
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Contact({ business }: { business: Business }) {
  return (
    <Section id="contact-heading" title="Contact Information">
      <dl className="space-y-3 text-slate-800">
        {business.phone ? (
          <div className="flex items-start gap-3">
            <dt>
              <Icon name="phone" className="mt-0.5 size-4 text-forest-700" label="Phone" />
            </dt>
            <dd>
              <a href={telHref(business.phone)} className="link">
                {business.phone}
              </a>
            </dd>
          </div>
        ) : null}
        {business.email ? (
          <div className="flex items-start gap-3">
            <dt>
              <Icon name="mail" className="mt-0.5 size-4 text-forest-700" label="Email" />
            </dt>
            <dd className="min-w-0 break-words">
              <a href={`mailto:${business.email}`} className="link">
                {business.email}
              </a>
            </dd>
          </div>
        ) : null}
        {business.website ? (
          <div className="flex items-start gap-3">
            <dt>
              <Icon name="globe" className="mt-0.5 size-4 text-forest-700" label="Website" />
            </dt>
            <dd className="min-w-0 break-words">
              <a href={business.website} target="_blank" rel="noopener noreferrer" className="link">
                {displayUrl(business.website)}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </dd>
          </div>
        ) : null}
        <div className="flex items-start gap-3">
          <dt>
            <Icon name="mapPin" className="mt-0.5 size-4 text-forest-700" label="Address" />
          </dt>
          <dd>
            <address className="not-italic">
              {business.address ? (
                <>
                  {business.address}
                  <br />
                </>
              ) : null}
              {business.city}, {business.state} {business.zipCode}
            </address>
            <a
              href={directionsUrl(business)}
              target="_blank"
              rel="noopener noreferrer"
              className="link mt-1 inline-flex min-h-11 items-center gap-1 font-semibold"
              data-testid="directions"
            >
              <Icon name="navigation" className="size-4" />
              Get directions<span className="sr-only"> to {business.name} (opens Google Maps in a new tab)</span>
            </a>
          </dd>
        </div>
      </dl>
    </Section>
  );
}

function Hours({ business, now }: { business: Business; now: number }) {
  return (
    <Section id="hours-heading" title="Business Hours" aside={<OpenNow business={business} now={now} />}>
      <HoursTable business={business} now={now} />
    </Section>
  );
}

function ServiceAreas({ business }: { business: Business }) {
  return (
    <Section id="areas-heading" title="Service Areas">
      <ServiceArea business={business} />
    </Section>
  );
}

/**
 * Badges only for what Treeline checked (badgesOf: an insurance badge goes by itself after its
 * last day); the operator's old free-text license and insurance lines are the business's own
 * words, shown plainly as such, and only for a kind the owner has not stated since (statedText).
 */
function Credentials({ business, now }: { business: Business; now: number }) {
  const badges = badgesOf(business.credentials, todayIn(now, business.timeZone), business.timeZone);
  const checked = [badges.licence, badges.insurance].filter((b): b is string => !!b);
  const old = statedText(business);
  const stated = !!(old.licence || old.insurance);
  if (checked.length === 0 && !stated) return null;
  return (
    <Section id="credentials-heading" title="Credentials">
      {checked.length > 0 ? (
        <ul className="space-y-2" aria-label="Checked by Treeline">
          {checked.map((text) => (
            <li
              key={text}
              className="flex items-start gap-2 rounded-lg bg-forest-50 px-3 py-2 text-sm font-medium text-forest-900"
              data-credential-badge=""
            >
              <Icon name="shield" className="mt-0.5 size-4 shrink-0 text-forest-700" /> {text}
            </li>
          ))}
        </ul>
      ) : null}
      {stated ? (
        <div className={checked.length > 0 ? "mt-4" : ""} data-credentials-stated="">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{STATED_LABELS.heading}</p>
          <dl className="mt-2 space-y-3 text-sm">
            {old.licence ? (
              <div>
                <dt className="font-medium text-slate-800">{STATED_LABELS.licence}</dt>
                <dd className="text-slate-700">{old.licence}</dd>
              </div>
            ) : null}
            {old.insurance ? (
              <div>
                <dt className="font-medium text-slate-800">{STATED_LABELS.insurance}</dt>
                <dd className="text-slate-700">{old.insurance}</dd>
              </div>
            ) : null}
          </dl>
        </div>
      ) : null}
    </Section>
  );
}

/**
 * The whole page body below the site header; `reviews` is the reviews section. `now` is the
 * moment the hours' open state and today's row are drawn for (the render's).
 */
export function BusinessDetail({
  business,
  reviews,
  now,
  live,
  distance,
  notice,
}: {
  business: Business;
  reviews: ReactNode;
  /** The storm notice, when a storm covers the business's area: after the heading, before the rest. */
  notice?: ReactNode;
  now: number;
  live?: boolean;
  /** From the place searched, when the page was opened from a near-me search. */
  distance?: Distance;
}) {
  return (
    <>
      <BusinessHeader business={business} live={live} distance={distance} />
      {notice ? <div className="container-page pb-6">{notice}</div> : null}
      {/* On phones the contact details and hours come before the (long) reviews; from lg they
          sit beside the main column. */}
      <div className="container-page grid gap-6 pb-16 lg:grid-cols-3 lg:gap-8">
        <div className="min-w-0 space-y-6 lg:col-span-2 lg:row-start-1">
          <About business={business} />
          <Photos business={business} />
          <Services business={business} />
        </div>
        <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-span-2 lg:row-start-1 lg:self-start">
          <Contact business={business} />
          <Hours business={business} now={now} />
          <ServiceAreas business={business} />
          <Credentials business={business} now={now} />
        </div>
        <div className="min-w-0 space-y-6 lg:col-span-2 lg:row-start-2">
          {reviews}
          <ClaimLink business={business} />
        </div>
      </div>
    </>
  );
}

/** The owner's way in: a claim, proved by the contact on file or checked by the operator. */
function ClaimLink({ business }: { business: Business }) {
  return (
    <p className="text-sm text-slate-600">
      <a className="link font-semibold" href={claimPath(business.slug)}>
        {CLAIM_LINK_LABEL}
      </a>{" "}
      {CLAIM_LINK_HINT}
    </p>
  );
}

export function BusinessNotFound() {
  return (
    <section className="container-page py-20 text-center">
      <h1 className="text-3xl font-bold text-forest-950">{NOT_FOUND.title}</h1>
      <p className="mx-auto mt-3 max-w-md text-slate-600">{NOT_FOUND.text}</p>
      <a href="/directory" className="btn-primary mt-8">
        {NOT_FOUND.link}
      </a>
    </section>
  );
}

export { businessPath };
