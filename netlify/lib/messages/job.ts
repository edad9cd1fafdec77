/**
 * Job offers: what a business is sent when a lead is offered to it (e-mail and SMS), and the
 * job's rows, its area and the decline and withdrawal labels that its answer page shows too.
 */
import { PRO_SERVICES, PROPERTY_TYPES, SERVICE_TYPES, TIMELINES, optionLabel } from "../../../src/lib/options.ts";
import { REQUEST_TYPES } from "../../../src/lib/schemas/booking.ts";
import { URGENCY_LABELS } from "../../../src/lib/lead-urgency.ts";
import { summarizeLead, type LeadSummary } from "../../../src/lib/lead-summary.ts";
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { DECLINE_REASONS, WITHDRAW_REASONS } from "../../../src/lib/lead-routing.ts";
import { SITE } from "../../../src/lib/site.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { button, oneLine, para, shell, table, textRows, type LeadFacts, type Row, type Written } from "./parts.ts";
import { clockTime } from "./time.ts";

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** "Bob" of "Bob Booker": what a business sees of the customer before it accepts. */
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/**
 * Where a job is without its street address, for a business that has not accepted it yet:
 * the place the lead was matched at when it arrived ("Austin, TX 78701" from a ZIP in the
 * address, else "Austin, TX"); undefined for a lead that names neither.
 */
export const jobArea = (lead: Pick<Lead, "place">) => lead.place?.label;

/**
 * The job as a business needs it: service, place, urgency, timing, details. `area` shows the
 * place as its area only (before the business accepted: no street address).
 */
export function jobRows(
  lead: Lead,
  summary: LeadSummary = summarizeLead(lead),
  { area = false }: { area?: boolean } = {},
): [label: string, value: string][] {
  const d = (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
  const rows: [string, string][] = [];
  const asked = str(d.serviceType);
  const service =
    lead.type === "find-pros"
      ? optionLabel(PRO_SERVICES, asked ?? "")
      : lead.type === "quote"
        ? optionLabel(SERVICE_TYPES, asked ?? "")
        : // A booking may leave the service open: what kind of visit it asks for says enough.
          (asked ?? `${optionLabel(REQUEST_TYPES, str(d.requestType) ?? "consultation")} request`);
  rows.push(["Service", service || "Not specified"]);
  if (area) rows.push(["Area", jobArea(lead) ?? "Given when you accept"]);
  else if (summary.place) rows.push([lead.type === "find-pros" ? "Location" : "Address", summary.place]);
  if (lead.type === "find-pros" && str(d.propertyType))
    rows.push(["Property", optionLabel(PROPERTY_TYPES, str(d.propertyType)!)]);
  rows.push(["Urgency", URGENCY_LABELS[lead.urgency ?? "routine"]]);
  if (lead.type === "find-pros" && str(d.timeline)) rows.push(["Timeline", optionLabel(TIMELINES, str(d.timeline)!)]);
  if (lead.type === "booking" && str(d.preferredDate)) rows.push(["Preferred date", str(d.preferredDate)!]);
  if (str(d.description)) rows.push(["Details", str(d.description)!]);
  return rows;
}

/** How a business's decline reads to it and to the operator. */
export const declineLabel = (reason: string | undefined) =>
  DECLINE_REASONS.find((r) => r.value === reason)?.label ?? "No reason given";

/** How a business's reason for giving a job back reads to it, the visitor and the operator. */
export const withdrawLabel = (reason: string | undefined) =>
  WITHDRAW_REASONS.find((r) => r.value === reason)?.label ?? "No reason given";

/**
 * To a business: the job and the one-tap answer link, by e-mail and by text. Before it
 * accepts, a business learns the customer's first name and the job's area, never their
 * phone, e-mail or street address: those come with Accept, on the answer page.
 */
export function offer({ lead, summary }: LeadFacts, delivery: Delivery, answerUrl: string): Written {
  const tz = delivery.timeZone ?? DEFAULT_TIME_ZONE;
  const rows: Row[] = [...jobRows(lead, summary, { area: true }), ["Customer", firstName(summary.name)]];
  if (delivery.distanceMiles !== undefined)
    rows.splice(2, 0, ["Distance", `${formatMiles(delivery.distanceMiles)} from you`]);
  const due = clockTime(delivery.deadlineAt, tz);
  const emergency = lead.urgency === "emergency";
  const service = rows[0]![1];
  const place = jobArea(lead) ?? "";
  const intro =
    lead.type === "booking"
      ? `A customer asked to book ${delivery.name} through ${SITE.name}.`
      : `A customer near you asked ${SITE.name} for quotes, and you are one of the closest pros who offer this service.`;
  const clock = `Please answer by ${due}. If you don't, we pass the job to another pro${emergency ? "" : " or our team"}.`;
  const noAccount = `No account needed. Reference ${lead.reference}.`;
  return {
    subject: oneLine(
      `${emergency ? "EMERGENCY job" : "New job"}: ${service}${place ? ` in ${place}` : ""} (answer by ${due})`,
    ),
    text: [
      intro,
      "",
      ...textRows(rows),
      "",
      clock,
      `Accept or decline (the customer's number and address come with Accept): ${answerUrl}`,
      "",
      noAccount,
    ].join("\n"),
    html: shell(
      emergency ? "Emergency job near you" : "New job request",
      para(intro) + table(rows) + para(clock) + button(answerUrl, "Accept or decline") + para(noAccount),
    ),
    sms: `${SITE.name}: ${emergency ? "EMERGENCY job" : "New job"} - ${service}${place ? `, ${place}` : ""}. Answer by ${due}: ${answerUrl}`,
  };
}
