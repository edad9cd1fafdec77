/**
 * Lead receipts and updates: what the visitor is told by e-mail when the request arrives and
 * each time where it stands changes, and the lines their status page says too. Every time in
 * them is in the job's own zone, named; an emergency's message leads with the danger and our
 * own line, and none promises when a crew arrives: the site controls who is asked, not that.
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { EMERGENCY_CONFIRMATION, offersNow } from "../../../src/lib/forms/copy.ts";
import { CONTACT_PROMISE_HOURS, SITE } from "../../../src/lib/facts.ts";
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import {
  button,
  oneLine,
  para,
  shell,
  table,
  textRows,
  warning,
  type LeadFacts,
  type Row,
  type Written,
} from "./parts.ts";
import { offerSummary } from "../delivery/routing.ts";
import { clockTime, dayTime, jobTimeZone } from "./time.ts";
import { withdrawLabel } from "./job.ts";

/** The danger and our own line, first, in every emergency message to a visitor. */
export const EMERGENCY_LINE = EMERGENCY_CONFIRMATION.line;

/** "A", "A and B", "A, B and C". */
const names = (list: readonly string[]) =>
  list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;

/** When an offer is due, in the job's zone: an emergency's minutes as a clock time, else with its day. */
const dueAt = (lead: Lead, iso: string) =>
  lead.urgency === "emergency" ? clockTime(iso, jobTimeZone(lead)) : dayTime(iso, jobTimeZone(lead));

/**
 * What the visitor is told happens next, by where the lead stands: who accepted, who is
 * still asked (only offers that wait: one no channel could deliver waits on nobody), or who
 * has it when no business does.
 */
export function nextStep(
  lead: Lead,
  /** No provider here carries offers: they are only kept for the team (offerSummary). */
  { kept = false }: { kept?: boolean } = {},
): string {
  const r = lead.routing;
  const urgency = lead.urgency ?? "routine";
  const emergency = urgency === "emergency";
  const accepted = r?.deliveries.find((d) => d.state === "accepted");
  if (accepted) return `${accepted.name} accepted your request and will contact you to confirm the details.`;
  const team = `${SITE.name}'s team has your request`;
  if (r?.escalatedAt) {
    const first = offerSummary(lead);
    // Straight to the team (no place, no pro near it; held to check): the summary says why.
    if (first && first.offered === 0 && (first.toOperator || first.held)) return offersNow(first, urgency)!;
    return emergency
      ? `No pro has accepted your emergency, so ${team} and will call you.`
      : `${team} and will call you to find a pro who can take it.`;
  }
  const waiting = r?.deliveries.filter((d) => d.state === "waiting") ?? [];
  if (waiting.length > 0) {
    const due = new Date(Math.max(...waiting.map((d) => Date.parse(d.deadlineAt)))).toISOString();
    const first = offerSummary(lead, { kept });
    if (first.kept) return offersNow(first, urgency)!;
    // Nothing has moved since the first offers: say them as the confirmation did.
    const untouched = first && r!.deliveries.length === first.offered && waiting.length === first.offered;
    const asked = untouched
      ? offersNow(first, urgency, { until: true })!
      : `Waiting for ${names(waiting.map((d) => d.name))} to answer, by ${dueAt(lead, due)}.`;
    return `${asked} If nobody accepts in time, we pass your request on.`;
  }
  if (r && r.deliveries.length > 0) return `No pro has your request right now, so we're passing it on.`;
  return emergency ? `${team} and will call you.` : `Our team will contact you within ${CONTACT_PROMISE_HOURS} hours.`;
}

/** An emergency message's first lines: the danger and our own line (text, then HTML). */
const dangerText = (lead: Lead) => (lead.urgency === "emergency" ? [EMERGENCY_LINE, ""] : []);
const dangerHtml = (lead: Lead) => (lead.urgency === "emergency" ? warning(EMERGENCY_LINE) : "");

/** To the visitor right after the request: the reference, the link, what happens next. */
export function receipt({ lead, summary }: LeadFacts, statusUrl: string): Written {
  const emergency = lead.urgency === "emergency";
  const hi = `Hi ${summary.name},`;
  const got = `We've received your ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()} (${summary.what}).`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`${emergency ? "Emergency request" : "Your request"} ${lead.reference} is in`),
    text: [
      ...dangerText(lead),
      hi,
      "",
      got,
      `Your reference: ${lead.reference}`,
      "",
      next,
      "",
      `See who has it and every answer: ${statusUrl}`,
    ].join("\n"),
    html: shell(
      `We've got your request, ${lead.reference}`,
      dangerHtml(lead) +
        para(hi) +
        para(got) +
        `<p style="margin:12px 0">Your reference: <strong>${escapeHtml(lead.reference ?? "")}</strong></p>` +
        para(next) +
        button(statusUrl, "See your request"),
    ),
  };
}

/** To the visitor after a business answered. */
export function answerUpdate(
  { lead }: LeadFacts,
  delivery: Delivery,
  kind: "accepted" | "declined" | "called",
  statusUrl: string,
): Written {
  const terms: Row[] = [
    ...(delivery.window ? [["When", delivery.window] as const] : []),
    ...(delivery.price ? [["Price", delivery.price] as const] : []),
  ];
  const headline =
    kind === "accepted"
      ? `${delivery.name} accepted your request`
      : kind === "called"
        ? `${delivery.name} is calling you`
        : `${delivery.name} can't take your request`;
  const detail =
    kind === "accepted"
      ? `${delivery.name} will contact you to confirm the details.${delivery.phone ? ` Their number: ${delivery.phone}.` : ""}`
      : kind === "called"
        ? `${delivery.name} is calling you about your request now. Their number: ${delivery.phone ?? "on their page"}.`
        : nextStep(lead);
  return {
    subject: oneLine(`${headline} (${lead.reference})`),
    text: [
      ...dangerText(lead),
      headline + ".",
      ...textRows(terms),
      "",
      detail,
      "",
      `Reference ${lead.reference}. Your request: ${statusUrl}`,
    ].join("\n"),
    html: shell(
      headline,
      dangerHtml(lead) +
        para(detail) +
        (terms.length ? table(terms) : "") +
        button(statusUrl, "See your request") +
        para(`Reference ${lead.reference}`),
    ),
  };
}

/** To the visitor when the clock offered the request to one more pro. */
export function passedOn({ lead }: LeadFacts, delivery: Delivery, statusUrl: string): Written {
  const line = `Nobody answered in time, so we've also offered your request to ${delivery.name}.`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`We've also offered your request to ${delivery.name} (${lead.reference})`),
    text: [...dangerText(lead), line, "", next, "", `Your request: ${statusUrl}`].join("\n"),
    html: shell(
      "We've offered your request to one more pro",
      dangerHtml(lead) + para(line) + para(next) + button(statusUrl, "See your request"),
    ),
  };
}

/** To the visitor when the operator takes over. */
export function operatorHasIt({ lead }: LeadFacts, statusUrl: string): Written {
  const line =
    lead.urgency === "emergency"
      ? `No pro has accepted your emergency yet, so ${SITE.name}'s team has it now and will call you.`
      : "Our team has your request now and will call you to find a pro who can take it.";
  return {
    subject: oneLine(`Our team has your request (${lead.reference})`),
    text: [...dangerText(lead), line, "", `Your request: ${statusUrl}`].join("\n"),
    html: shell("Our team has your request", dangerHtml(lead) + para(line) + button(statusUrl, "See your request")),
  };
}

/** To the visitor when a pro that accepted gave the job back: why, and what happens now. */
export function withdrawnUpdate({ lead }: LeadFacts, delivery: Delivery, statusUrl: string): Written {
  const headline = `${delivery.name} can no longer take your request`;
  const why = `They gave it back after accepting it (${withdrawLabel(delivery.reason).toLowerCase()}).`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`${headline} (${lead.reference})`),
    text: [
      ...dangerText(lead),
      headline + ".",
      why,
      "",
      next,
      "",
      `Reference ${lead.reference}. Your request: ${statusUrl}`,
    ].join("\n"),
    html: shell(headline, dangerHtml(lead) + para(why) + para(next) + button(statusUrl, "See your request")),
  };
}
