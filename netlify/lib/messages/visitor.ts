/**
 * Lead receipts and updates: what the visitor is told by e-mail when the request arrives and
 * each time where it stands changes, and the lines their status page says too.
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { CONTACT_PROMISE_HOURS, EMERGENCY_RESPONSE, SITE } from "../../../src/lib/facts.ts";
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
import { withdrawLabel } from "./job.ts";
import { dayTime } from "./time.ts";

/** The emergency line, first, in every emergency message to a visitor. */
export const EMERGENCY_LINE = `If anyone is in danger or a tree is on a house or a power line, call ${SITE.phone} now: our emergency crews are dispatched within ${EMERGENCY_RESPONSE.dispatchMinutes} minutes and on site within ${EMERGENCY_RESPONSE.onSiteHours} hours, 24/7.`;

/** What the visitor is told happens next, by where the lead stands. */
export function nextStep(lead: Lead): string {
  const r = lead.routing;
  const emergency = lead.urgency === "emergency";
  if (r?.deliveries.some((d) => d.state === "accepted")) {
    return "A pro has accepted your request and will contact you to confirm the details.";
  }
  if (r?.escalatedAt) {
    return emergency
      ? `Our team has your request and is calling pros now. Don't wait for us: call ${SITE.phone} for emergency dispatch.`
      : "Our team has your request and will call you to find a pro who can take it.";
  }
  const waiting = r?.deliveries.filter((d) => d.state === "waiting") ?? [];
  if (waiting.length > 0) {
    const due = Math.max(...waiting.map((d) => Date.parse(d.deadlineAt)));
    return `Waiting for ${waiting.map((d) => d.name).join(", ")} to answer. If nobody accepts by ${dayTime(new Date(due).toISOString())}, we pass your request on.`;
  }
  return emergency
    ? `Call ${SITE.phone} now for emergency dispatch; our team also has your request.`
    : `Our team will contact you within ${CONTACT_PROMISE_HOURS} hours.`;
}

/** To the visitor right after the request: the reference, the link, what happens next. */
export function receipt({ lead, summary }: LeadFacts, statusUrl: string): Written {
  const emergency = lead.urgency === "emergency";
  const hi = `Hi ${summary.name},`;
  const got = `We've received your ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()} (${summary.what}).`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`${emergency ? "Emergency request" : "Your request"} ${lead.reference} is in`),
    text: [
      ...(emergency ? [EMERGENCY_LINE, ""] : []),
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
      (emergency ? warning(EMERGENCY_LINE) : "") +
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
      headline + ".",
      ...textRows(terms),
      "",
      detail,
      "",
      `Reference ${lead.reference}. Your request: ${statusUrl}`,
    ].join("\n"),
    html: shell(
      headline,
      para(detail) +
        (terms.length ? table(terms) : "") +
        button(statusUrl, "See your request") +
        para(`Reference ${lead.reference}`),
    ),
  };
}

/** To the visitor when the clock offered the request to one more pro. */
export function passedOn({ lead }: LeadFacts, delivery: Delivery, statusUrl: string): Written {
  const line = `Nobody answered in time, so we've also sent your request to ${delivery.name}.`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`We've passed your request to ${delivery.name} (${lead.reference})`),
    text: [line, "", next, "", `Your request: ${statusUrl}`].join("\n"),
    html: shell("We've passed your request on", para(line) + para(next) + button(statusUrl, "See your request")),
  };
}

/** To the visitor when the operator takes over. */
export function operatorHasIt({ lead }: LeadFacts, statusUrl: string): Written {
  const line =
    lead.urgency === "emergency"
      ? `No pro has confirmed your emergency yet, so our own team has it now. Call ${SITE.phone} for dispatch within ${EMERGENCY_RESPONSE.dispatchMinutes} minutes.`
      : "Our team has your request now and will call you to find a pro who can take it.";
  return {
    subject: oneLine(`Our team has your request (${lead.reference})`),
    text: [line, "", `Your request: ${statusUrl}`].join("\n"),
    html: shell("Our team has your request", para(line) + button(statusUrl, "See your request")),
  };
}

/** To the visitor when a pro that accepted gave the job back: why, and what happens now. */
export function withdrawnUpdate({ lead }: LeadFacts, delivery: Delivery, statusUrl: string): Written {
  const headline = `${delivery.name} can no longer take your request`;
  const why = `They gave it back after accepting it (${withdrawLabel(delivery.reason).toLowerCase()}).`;
  const next = nextStep(lead);
  return {
    subject: oneLine(`${headline} (${lead.reference})`),
    text: [headline + ".", why, "", next, "", `Reference ${lead.reference}. Your request: ${statusUrl}`].join("\n"),
    html: shell(headline, para(why) + para(next) + button(statusUrl, "See your request")),
  };
}
