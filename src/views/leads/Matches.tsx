/**
 * The businesses a request was offered to, as the confirmations list them (the quote's, and
 * find-pros' no-JS page): each one's page, distance, rating and own number, so a homeowner
 * can tell them from the site's line and call one directly. A sample business says so.
 */
import { formatMiles } from "../../lib/geo/distance.ts";
import type { ReceivedMatch } from "../../lib/received.ts";
import { telHref } from "../../lib/site.ts";
import { SampleBadge } from "../SampleBadge.tsx";
import { TAKING_FIRST, TAKING_STORM_JOBS } from "../../lib/storm-routing.ts";

export function MatchList({ matches }: { matches: readonly ReceivedMatch[] }) {
  const list = (
    <ul className="matches grid gap-3">
      {matches.map((m) => (
        <li key={m.slug} className="rounded-card border border-forest-100 bg-forest-50 px-4 py-3">
          <a href={`/directory/${encodeURIComponent(m.slug)}`} className="link font-semibold">
            {m.name}
          </a>
          {m.isSample ? <SampleBadge className="ml-2" /> : null}
          {m.takingStormJobs ? (
            <span className="badge ml-2 bg-forest-100 text-forest-900">{TAKING_STORM_JOBS}</span>
          ) : null}
          <p className="mt-1 text-sm text-slate-600">
            {formatMiles(m.distanceMiles)} away
            {m.reviewCount > 0
              ? ` · ${m.rating} stars (${m.reviewCount} ${m.reviewCount === 1 ? "review" : "reviews"})`
              : ""}
          </p>
          {m.phone ? (
            <p className="mt-1">
              <a href={telHref(m.phone)} className="link whitespace-nowrap">
                <span className="sr-only">Call {m.name} at </span>
                {m.phone}
              </a>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
  // Inside a storm, routing offered the request to businesses taking storm jobs first.
  if (!matches.some((m) => m.takingStormJobs)) return list;
  return (
    <>
      <p className="mb-2 text-sm font-semibold text-slate-900">{TAKING_FIRST.matches}</p>
      {list}
    </>
  );
}
