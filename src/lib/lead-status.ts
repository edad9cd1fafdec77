/**
 * A lead's status follows its offers: the store writes `statusOf(lead)` with every routing
 * change and every operator edit, so the admin's filters, counts and export never say "new"
 * about a lead a business already accepted. Browser-safe: the store, the admin functions and
 * the admin island all read it from here.
 */
import { LEGACY_LEAD_STATUSES, type Lead, type LeadChange, type LeadStatus, type Routing } from "./schemas/lead.ts";

/** A status the offers decide (everything but the operator's "closed"). */
export type RoutedStatus = Exclude<LeadStatus, "closed">;

/**
 * What the offers say: accepted when a business accepted it (and has not withdrawn);
 * escalated when it was passed to the operator and nobody accepted; offered while an offer
 * still waits for an answer; new otherwise (never offered: a growth request, a lead stored
 * before routing, or one whose offers all ended without reaching the operator yet).
 */
export function routedStatus(routing: Routing | undefined): RoutedStatus {
  const deliveries = routing?.deliveries ?? [];
  if (deliveries.some((d) => d.state === "accepted")) return "accepted";
  if (routing?.escalatedAt) return "escalated";
  if (deliveries.some((d) => d.state === "waiting")) return "offered";
  return "new";
}

/** The status a lead should be stored with: closed stays closed, the rest follows its offers. */
export function statusOf(lead: Pick<Lead, "status" | "routing">): LeadStatus {
  return readStatus(lead.status) === "closed" ? "closed" : routedStatus(lead.routing);
}

/** Statuses that wait for the operator: nobody has the lead (new), or it came back (escalated). */
export const NEEDS_OPERATOR: readonly LeadStatus[] = ["new", "escalated"];

export const needsOperator = (status: LeadStatus) => NEEDS_OPERATOR.includes(status);

/**
 * An open emergency stays pinned on top of the inbox until someone has it: a business
 * accepted it, or the operator closed it.
 */
export const isOpenEmergency = (lead: Pick<Lead, "urgency" | "status">) =>
  lead.urgency === "emergency" && lead.status !== "accepted" && lead.status !== "closed";

/** A stored status as it reads now (earlier versions' values mapped, LEGACY_LEAD_STATUSES). */
export function readStatus(value: string): LeadStatus {
  return (Object.hasOwn(LEGACY_LEAD_STATUSES, value) ? LEGACY_LEAD_STATUSES[value] : value) as LeadStatus;
}

/** A stored lead with its status and its history's statuses as they read now. */
export function withCurrentStatuses<T extends Pick<Lead, "status" | "history">>(lead: T): T {
  const legacy = (s: string) => Object.hasOwn(LEGACY_LEAD_STATUSES, s);
  const stale = legacy(lead.status) || (lead.history ?? []).some((c) => legacy(c.from) || legacy(c.to));
  if (!stale) return lead;
  const history = lead.history?.map((c): LeadChange => ({ ...c, from: readStatus(c.from), to: readStatus(c.to) }));
  return { ...lead, status: readStatus(lead.status), ...(history ? { history } : {}) };
}
