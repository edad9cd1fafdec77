/**
 * "Offer to nearby businesses" in a lead's window: the operator routes a lead by hand. On
 * request it lists the businesses near the job (nearest first: distance, the services they
 * list, 24/7 or open now, whether an offer can reach them), with the ones already offered
 * marked, and offers the lead to the chosen ones: the same offer, answer link and clock as
 * any other (POST /api/admin/leads/:id/offers). Growth requests are Treeline's own and get
 * no such section. Like the rest of /admin it needs JavaScript (the page says so without).
 */
import { useId, useState, type FormEvent } from "react";
import type { AdminNearbyBusiness, AdminNearbyReply, AdminOfferReply } from "../../lib/admin.ts";
import { DELIVERY_STATE_LABELS } from "../../lib/admin-messages.ts";
import { businessPath } from "../../lib/directory.ts";
import { formatMiles } from "../../lib/geo/distance.ts";
import type { Lead } from "../../lib/schemas/lead.ts";
import { adminJson } from "./api.ts";
import { useAdminAction } from "./ListParts.tsx";
import { SampleBadge } from "../../views/SampleBadge.tsx";

const sectionTitle = "mt-6 text-sm font-semibold tracking-wide text-forest-700 uppercase";

interface Props {
  token: string;
  lead: Lead;
  /** The lead as stored after the offers. */
  onOffered(lead: Lead): void;
  onAuthError(): void;
}

/** What the operator chooses by, in one line under the name. */
function factsOf(b: AdminNearbyBusiness, service: string | null): string[] {
  return [
    formatMiles(b.distanceMiles),
    b.services.length > 0 ? b.services.join(", ") : "No services listed",
    ...(service && !b.offersService ? [`Does not list ${service}`] : []),
    ...(b.emergency247 ? ["Emergencies 24/7"] : []),
    b.openNow ? "Open now" : "Closed now",
    `${b.rating} stars (${b.reviewCount})`,
  ];
}

export function LeadOffers({ token, lead, onOffered, onAuthError }: Props) {
  const uid = useId();
  const [nearby, setNearby] = useState<AdminNearbyReply | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { busy, notice, setNotice, run } = useAdminAction(onAuthError, setError);
  const path = `/api/admin/leads/${encodeURIComponent(lead.id)}/offers`;
  const offered = lead.routing?.deliveries ?? [];

  const load = () =>
    run("load", async () => {
      const reply = await adminJson<AdminNearbyReply>(token, path);
      setNearby(reply);
      setChosen((current) => current.filter((id) => reply.data.some((b) => b.id === id)));
    });

  async function offer(event: FormEvent) {
    event.preventDefault();
    if (chosen.length === 0) {
      setError("Choose at least one business to offer the lead to.");
      return;
    }
    await run("offer", async () => {
      const reply = await adminJson<AdminOfferReply>(token, path, { method: "POST", body: { businessIds: chosen } });
      const names = reply.data.routing?.deliveries
        .filter((d) => reply.offered.includes(d.businessId))
        .map((d) => d.name);
      onOffered(reply.data);
      setChosen([]);
      // The list follows: the businesses just offered leave it (they are marked above it).
      setNearby((current) =>
        current ? { ...current, data: current.data.filter((b) => !reply.offered.includes(b.id)) } : current,
      );
      setNotice(`Offered to ${names?.join(", ") || "the chosen businesses"}.`);
    });
  }

  if (lead.type === "audit" || lead.type === "assessment") return null;
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => (on ? [...current.filter((c) => c !== id), id] : current.filter((c) => c !== id)));

  return (
    <section aria-labelledby={`${uid}-title`} data-testid="lead-offers">
      <h3 id={`${uid}-title`} className={sectionTitle}>
        Offer to nearby businesses
      </h3>
      <p className="mt-2 text-sm text-slate-600">
        The same offer, answer link and clock as any other. If nobody accepts, the lead comes back to you.
        {lead.status === "closed" ? " This lead is closed: its status stays Closed until you reopen it." : ""}
      </p>
      {nearby === null ? (
        <button
          type="button"
          className="btn-outline btn-sm mt-3"
          onClick={() => void load()}
          disabled={busy === "load"}
        >
          {busy === "load" ? "Finding businesses..." : "Show nearby businesses"}
        </button>
      ) : (
        <form onSubmit={offer} className="mt-3 grid gap-3">
          <fieldset className="min-w-0">
            <legend className="text-sm font-medium text-slate-900">
              {nearby.near
                ? `Near ${nearby.near}${nearby.service ? `, for ${nearby.service}` : ""}, nearest first`
                : "Businesses near the job"}
            </legend>
            <ul
              className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200"
              aria-label="Nearby businesses"
            >
              {offered.map((d) => (
                <li key={d.businessId} className="flex items-start gap-3 p-3 text-sm" data-offered={d.state}>
                  <input
                    id={`${uid}-${d.businessId}`}
                    type="checkbox"
                    className="mt-0.5 size-5 shrink-0"
                    checked
                    disabled
                    aria-describedby={`${uid}-${d.businessId}-facts`}
                  />
                  <div className="min-w-0">
                    <label htmlFor={`${uid}-${d.businessId}`} className="font-semibold text-slate-700">
                      {d.name}
                    </label>
                    <p id={`${uid}-${d.businessId}-facts`} className="text-slate-600">
                      <span className="badge bg-slate-200 text-slate-800">
                        Already offered: {DELIVERY_STATE_LABELS[d.state]}
                      </span>
                      {typeof d.distanceMiles === "number" ? ` ${formatMiles(d.distanceMiles)}` : ""}
                    </p>
                  </div>
                </li>
              ))}
              {nearby.data.map((b) => (
                <li key={b.id} className="flex items-start gap-3 p-3 text-sm">
                  <input
                    id={`${uid}-${b.id}`}
                    type="checkbox"
                    className="mt-0.5 size-5 shrink-0 accent-forest-700"
                    checked={chosen.includes(b.id)}
                    onChange={(e) => toggle(b.id, e.target.checked)}
                    aria-describedby={`${uid}-${b.id}-facts`}
                  />
                  <div className="min-w-0">
                    <label htmlFor={`${uid}-${b.id}`} className="font-semibold text-slate-900">
                      {b.name}
                    </label>{" "}
                    <a className="link text-xs" href={businessPath(b.slug)} target="_blank" rel="noreferrer">
                      Profile<span className="sr-only"> of {b.name}</span>
                    </a>
                    {b.isSample ? <SampleBadge className="ml-1" /> : null}
                    <p id={`${uid}-${b.id}-facts`} className="break-words text-slate-600">
                      {factsOf(b, nearby.service).join(" · ")}
                      {b.reachable ? "" : " · No e-mail or phone on file: the offer would come back to you"}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            {nearby.data.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                {nearby.near
                  ? "No other listed business within 50 miles of the job."
                  : "The request names no ZIP or city we know, so there is no list of nearby businesses: call the customer to find out where the job is."}
              </p>
            ) : null}
          </fieldset>
          {nearby.data.length > 0 ? (
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <button type="submit" className="btn-secondary btn-sm" disabled={busy === "offer"}>
                {busy === "offer"
                  ? "Offering..."
                  : chosen.length > 1
                    ? `Offer to ${chosen.length} businesses`
                    : "Offer to the chosen business"}
              </button>
              <button type="button" className="btn-outline btn-sm" onClick={() => void load()} disabled={busy !== null}>
                Read the list again
              </button>
            </div>
          ) : null}
        </form>
      )}
      {notice ? (
        <p className="mt-2 text-sm text-forest-700" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}
