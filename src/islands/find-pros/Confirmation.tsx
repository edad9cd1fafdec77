/**
 * What replaces the form once the request is stored: for an emergency the danger and our
 * own line first, then what is happening to the request now and the receipt, then the pros
 * it went to (or who has it when none matched). An emergency is promised neither a day nor
 * an arrival. Focus moves to the heading so keyboard and screen reader users land on the
 * result instead of on a button that no longer exists.
 */
import { useEffect, useRef } from "react";
import { NO_REVIEWS_YET } from "../../lib/directory.ts";
import { noMatchesMessage, offersNow } from "../../lib/forms/copy.ts";
import { formatMiles } from "../../lib/geo/distance.ts";
import { CONTACT_PROMISE_HOURS } from "../../lib/lead-urgency.ts";
import type { Receipt } from "../../lib/receipt.ts";
import type { OfferSummary } from "../../lib/received.ts";
import { telHref } from "../../lib/site.ts";
import { StarRow } from "../Stars.tsx";
import { Icon } from "../../views/Icon.tsx";
import { SampleBadge } from "../../views/SampleBadge.tsx";
import { TAKING_FIRST, TAKING_STORM_JOBS } from "../../lib/storm-routing.ts";
import { EmergencyCall, ReceiptNote } from "../../views/leads/Receipt.tsx";
import type { StormNotice as StormNoticeData } from "../../lib/storm.ts";
import { StormNotice } from "../../views/storm/StormNotice.tsx";
import type { Match } from "./submit.ts";

interface Props {
  matches: Match[];
  /** The server's next-step text when nothing matched (preferred over ours, except in an emergency). */
  message?: string;
  receipt: Receipt;
  /** Where the request stands now (the reply's `offers`), when the server said. */
  offers?: OfferSummary;
  /** The storm notice when the job's place is inside a declared storm. */
  storm?: StormNoticeData;
  /** The name as typed, for a personal touch; may be empty. */
  name: string;
  location: string;
  onReset: () => void;
}

export function Confirmation({ matches, message, receipt, offers, storm, name, location, onReset }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // The whole name as typed: its first word may not be a name ("Find Pros Tester", "Dr. Ruiz").
  const greeting = name.trim().replace(/\s+/g, " ");
  const emergency = receipt.urgency === "emergency";
  const where = location.trim() ? ` in ${location.trim()}` : "";
  const now = offersNow(offers, receipt.urgency);

  return (
    <div className="text-center sm:text-left" data-testid="find-pros-confirmation">
      <span className="mx-auto mb-4 inline-flex size-12 items-center justify-center rounded-full bg-forest-100 text-forest-700 sm:mx-0">
        <Icon name="check" className="size-6 stroke-[2.5]" />
      </span>
      <h3 ref={heading} tabIndex={-1} className="text-2xl font-bold outline-none">
        Request received
      </h3>
      {emergency ? (
        <div className="mt-4 text-left">
          <EmergencyCall />
        </div>
      ) : null}
      <p className="mt-2 text-slate-600">
        {greeting ? `Thanks, ${greeting}. ` : "Thanks. "}
        {matches.length > 0
          ? (now ??
              `We matched your request to ${matches.length === 1 ? "a local pro" : `${matches.length} local pros`}.`) +
            // A held request, or offers only kept, reached no pro: the team gets in touch instead.
            (emergency || offers?.held || offers?.kept
              ? ""
              : ` Expect a call or e-mail with a quote within ${CONTACT_PROMISE_HOURS} hours.`)
          : "We've got your request for quotes."}
      </p>
      {receipt.reference ? (
        <div className="mt-4 text-left">
          <ReceiptNote receipt={receipt} />
        </div>
      ) : null}
      {storm ? <StormNotice notice={storm} level={4} className="mt-4 text-left" /> : null}

      {matches.length > 0 ? (
        <>
          <h4 className="mt-6 text-left text-sm font-semibold tracking-wide text-forest-600 uppercase">
            Your matched pros
          </h4>
          {matches.some((m) => m.takingStormJobs) ? (
            <p className="mt-2 text-left text-sm font-semibold text-slate-900">{TAKING_FIRST.matches}</p>
          ) : null}
          <ul className="mt-3 space-y-3 text-left">
            {matches.map((pro) => (
              <li
                key={pro.slug}
                className="flex flex-col gap-3 rounded-xl border border-forest-100 bg-forest-50/60 p-4 sm:flex-row sm:items-center sm:justify-between"
              >
                <div>
                  <a href={`/directory/${encodeURIComponent(pro.slug)}`} className="link text-base font-semibold">
                    {pro.name}
                  </a>
                  {pro.isSample ? <SampleBadge className="ml-2" /> : null}
                  {pro.takingStormJobs ? (
                    <span className="badge ml-2 bg-forest-100 text-forest-900">{TAKING_STORM_JOBS}</span>
                  ) : null}
                  {pro.reviewCount > 0 ? (
                    <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
                      <StarRow rating={pro.rating} />
                      <span>
                        <span className="font-semibold text-slate-800">{pro.rating.toFixed(1)}</span>
                        <span className="sr-only"> out of 5 stars</span> ({pro.reviewCount}{" "}
                        {pro.reviewCount === 1 ? "review" : "reviews"})
                      </span>
                    </p>
                  ) : (
                    <p className="mt-1 text-sm text-slate-600">{NO_REVIEWS_YET}</p>
                  )}
                  {pro.distanceMiles !== undefined && (
                    <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600" data-testid="match-distance">
                      <Icon name="mapPin" className="size-4 text-forest-500" />
                      {formatMiles(pro.distanceMiles)} away
                    </p>
                  )}
                </div>
                {pro.phone && (
                  <a href={telHref(pro.phone)} className="btn-outline btn-sm shrink-0">
                    <Icon name="phone" className="size-4" />
                    <span className="sr-only">Call {pro.name} at </span>
                    {pro.phone}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p
          className="mt-6 rounded-xl border border-forest-100 bg-forest-50/60 p-4 text-left text-slate-700"
          data-testid="offers-now"
        >
          {now ??
            (emergency
              ? noMatchesMessage("emergency")
              : (message ??
                `We couldn't match a listed pro${where} right away. Our team will hand-pick up to 3 licensed, insured pros near you and contact you within ${CONTACT_PROMISE_HOURS} hours.`))}
        </p>
      )}

      <button type="button" onClick={onReset} className="btn-outline mt-6">
        Start another request
      </button>
    </div>
  );
}
