/**
 * Where a booking or find-pros request went: each business it was offered to with its answer
 * (state, deadline, when it answered, its window and price or its reason to decline, when it
 * called the customer), then every routing event, oldest first.
 */
import {
  DECLINE_REASON_LABELS,
  DELIVERY_STATE_LABELS,
  ROUTING_EVENT_LABELS,
  ROUTING_REASON_LABELS,
} from "../../lib/admin-messages.ts";
import { businessPath } from "../../lib/directory.ts";
import { reportReasonLabel } from "../../lib/lead-routing.ts";
import { formatMiles } from "../../lib/geo/distance.ts";
import type { Delivery, DeliveryState, Routing } from "../../lib/schemas/lead.ts";
import { formatWhen } from "./api.ts";

const STATE_COLORS: Record<DeliveryState, string> = {
  waiting: "bg-amber-100 text-amber-900",
  accepted: "bg-forest-100 text-forest-800",
  declined: "bg-slate-200 text-slate-700",
  expired: "bg-red-100 text-red-800",
  undelivered: "bg-red-100 text-red-800",
  withdrawn: "bg-slate-200 text-slate-700",
};

const sectionTitle = "mt-6 text-sm font-semibold tracking-wide text-forest-700 uppercase";

function answerFacts(d: Delivery, when: (iso: string) => string): [string, string][] {
  const facts: [string, string | undefined][] = [
    ["Offered", when(d.offeredAt)],
    [d.state === "waiting" ? "Answer by" : "Deadline", when(d.deadlineAt)],
    ["Answered", d.answeredAt ? when(d.answeredAt) : undefined],
    ["Called the customer", d.calledAt ? when(d.calledAt) : undefined],
    ["Withdrew", d.withdrawnAt ? when(d.withdrawnAt) : undefined],
    ["Reported", d.reportedAt ? `${when(d.reportedAt)}: ${reportReasonLabel(d.report ?? "")}` : undefined],
    ["Window", d.window],
    ["Price", d.price],
    ["Reason", d.reason ? (DECLINE_REASON_LABELS[d.reason] ?? d.reason) : undefined],
    ["Reached at", [d.email, d.phone].filter(Boolean).join(" · ") || "No e-mail or phone on file"],
  ];
  return facts.filter((f): f is [string, string] => !!f[1]);
}

/** `timeZone`: the lead's own (the job's); every time here is said in it, with its name. */
export function LeadRouting({ routing, timeZone }: { routing: Routing; timeZone: string }) {
  const names = new Map(routing.deliveries.map((d) => [d.businessId, d.name]));
  const when = (iso: string) => formatWhen(iso, timeZone);
  return (
    <>
      <h3 className={sectionTitle}>Delivery</h3>
      {routing.escalatedAt ? (
        <p className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          Passed to the operator {when(routing.escalatedAt)}: a person needs to take it.
        </p>
      ) : null}
      {routing.deliveries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Not offered to any business.</p>
      ) : (
        <ol className="mt-2 space-y-3" aria-label="Businesses offered the lead" data-testid="deliveries">
          {routing.deliveries.map((d) => (
            <li key={d.businessId} className="rounded-lg border border-slate-200 p-3 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <a className="link font-semibold" href={businessPath(d.slug)} target="_blank" rel="noreferrer">
                  {d.name}
                </a>
                {typeof d.distanceMiles === "number" ? (
                  <span className="text-slate-500">{formatMiles(d.distanceMiles)}</span>
                ) : null}
                <span className={`badge ${STATE_COLORS[d.state]}`}>{DELIVERY_STATE_LABELS[d.state]}</span>
              </p>
              <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
                {answerFacts(d, when).map(([term, value]) => (
                  <div key={term} className="contents">
                    <dt className="text-slate-600">{term}</dt>
                    <dd className="break-words text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ol>
      )}
      {routing.events.length > 0 ? (
        <>
          <h3 className={sectionTitle}>Timeline</h3>
          <ol className="mt-2 space-y-1 text-sm text-slate-700" aria-label="Timeline, oldest first">
            {routing.events.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <time dateTime={e.at} className="text-slate-500">
                  {when(e.at)}
                </time>{" "}
                {ROUTING_EVENT_LABELS[e.kind] ?? e.kind}
                {e.businessId ? `: ${names.get(e.businessId) ?? e.businessId}` : ""}
                {e.reason ? ` (${ROUTING_REASON_LABELS[e.reason] ?? DECLINE_REASON_LABELS[e.reason] ?? e.reason})` : ""}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
