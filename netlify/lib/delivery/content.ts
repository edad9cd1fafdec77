/**
 * What each message about a lead says (docs/lead-delivery.md lists them all). Plain functions
 * from the lead to a subject, text and HTML: compose.ts decides which messages a lead owes,
 * this file only words them. The visitor's own text is escaped for HTML, never interpreted.
 */
import { PRO_SERVICES, PROPERTY_TYPES, SERVICE_TYPES, TIMELINES, optionLabel } from "../../../src/lib/options.ts";
import { REQUEST_TYPES } from "../../../src/lib/schemas/booking.ts";
import { RESPONSE_TIMES } from "../../../src/lib/facts.ts";
import { EMERGENCY_RESPONSE, URGENCY_LABELS } from "../../../src/lib/lead-urgency.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { formatMiles } from "../../../src/lib/geo/distance.ts";
import { DEFAULT_TIME_ZONE } from "../../../src/lib/hours.ts";
import { SITE } from "../../../src/lib/site.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { DECLINE_REASONS, ROUTING_REASON_LABELS } from "../../../src/lib/lead-routing.ts";

export interface Written {
  subject: string;
  text: string;
  html: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const dataOf = (lead: Lead) => (lead.data && typeof lead.data === "object" ? lead.data : {}) as Record<string, unknown>;
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").slice(0, 150);

/** "3:10 PM CST" in the zone the reader is in. */
export function clockTime(iso: string, timeZone = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** "Thu, Nov 26, 3:10 PM CST". */
export function dayTime(iso: string, timeZone = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** The job as a business needs it: service, place, urgency, timing, details. */
export function jobRows(lead: Lead): [label: string, value: string][] {
  const d = dataOf(lead);
  const s = summarizeLead(lead);
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
  if (s.place) rows.push([lead.type === "find-pros" ? "Location" : "Address", s.place]);
  if (lead.type === "find-pros" && str(d.propertyType))
    rows.push(["Property", optionLabel(PROPERTY_TYPES, str(d.propertyType)!)]);
  rows.push(["Urgency", URGENCY_LABELS[lead.urgency ?? "routine"]]);
  if (lead.type === "find-pros" && str(d.timeline)) rows.push(["Timeline", optionLabel(TIMELINES, str(d.timeline)!)]);
  if (lead.type === "booking") {
    if (str(d.preferredDate)) rows.push(["Preferred date", str(d.preferredDate)!]);
  }
  if (str(d.description)) rows.push(["Details", str(d.description)!]);
  return rows;
}

const table = (rows: [string, string][]) =>
  `<table role="presentation" style="border-collapse:collapse">${rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join("")}</table>`;

/** The e-mails' parts, shared by every message the site writes (owners' sign-in mail too). */
export const button = (href: string, label: string) =>
  `<p style="margin:20px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#24583b;color:#fff;padding:12px 20px;border-radius:8px;font-weight:700;text-decoration:none">${escapeHtml(label)}</a></p>`;

export const para = (text: string) => `<p style="margin:12px 0">${escapeHtml(text)}</p>`;

export const shell = (heading: string, body: string) =>
  `<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1e293b;line-height:1.5;max-width:560px">` +
  `<h2 style="margin:0 0 12px;color:#0d2116">${escapeHtml(heading)}</h2>${body}` +
  `<p style="margin-top:24px;font-size:13px;color:#475569">${escapeHtml(SITE.name)} · ${escapeHtml(SITE.phone)} · ${escapeHtml(SITE.email)}</p></div>`;

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
  if (r && r.deliveries.some((d) => d.state === "waiting")) {
    const names = r.deliveries.filter((d) => d.state === "waiting").map((d) => d.name);
    const due = Math.max(...r.deliveries.filter((d) => d.state === "waiting").map((d) => Date.parse(d.deadlineAt)));
    return `Waiting for ${names.join(", ")} to answer. If nobody accepts by ${dayTime(new Date(due).toISOString())}, we pass your request on.`;
  }
  return emergency
    ? `Call ${SITE.phone} now for emergency dispatch; our team also has your request.`
    : `Our team will contact you within ${RESPONSE_TIMES.contact}.`;
}

const what = (lead: Lead) => summarizeLead(lead).what;

/** To the visitor right after the request: the reference, the link, what happens next. */
export function receipt(lead: Lead, statusUrl: string): Written {
  const s = summarizeLead(lead);
  const emergency = lead.urgency === "emergency";
  const lines = [
    ...(emergency ? [EMERGENCY_LINE, ""] : []),
    `Hi ${s.name},`,
    "",
    `We've received your ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()} (${what(lead)}).`,
    `Your reference: ${lead.reference}`,
    "",
    nextStep(lead),
    "",
    `See who has it and every answer: ${statusUrl}`,
  ];
  const html = shell(
    `We've got your request, ${lead.reference}`,
    (emergency ? `<p style="margin:12px 0;font-weight:700;color:#991b1b">${escapeHtml(EMERGENCY_LINE)}</p>` : "") +
      para(`Hi ${s.name},`) +
      para(`We've received your ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()} (${what(lead)}).`) +
      `<p style="margin:12px 0">Your reference: <strong>${escapeHtml(lead.reference ?? "")}</strong></p>` +
      para(nextStep(lead)) +
      button(statusUrl, "See your request"),
  );
  return {
    subject: oneLine(`${emergency ? "Emergency request" : "Your request"} ${lead.reference} is in`),
    text: lines.join("\n"),
    html,
  };
}

/** To a business: the job and the one-tap answer link. */
export function offer(lead: Lead, delivery: Delivery, answerUrl: string): Written & { sms: string } {
  const tz = delivery.timeZone ?? DEFAULT_TIME_ZONE;
  const rows = jobRows(lead);
  if (delivery.distanceMiles !== undefined)
    rows.splice(2, 0, ["Distance", `${formatMiles(delivery.distanceMiles)} from you`]);
  const due = clockTime(delivery.deadlineAt, tz);
  const emergency = lead.urgency === "emergency";
  const service = rows[0]![1];
  const place = summarizeLead(lead).place ?? "";
  const subject = oneLine(
    `${emergency ? "EMERGENCY job" : "New job"}: ${service}${place ? ` in ${place}` : ""} (answer by ${due})`,
  );
  const intro =
    lead.type === "booking"
      ? `A customer asked to book ${delivery.name} through ${SITE.name}.`
      : `A customer near you asked ${SITE.name} for quotes, and you are one of the closest pros who offer this service.`;
  const clock = `Please answer by ${due}. If you don't, we pass the job to another pro${emergency ? "" : " or our team"}.`;
  const text = [
    intro,
    "",
    ...rows.map(([l, v]) => `${l}: ${v}`),
    "",
    clock,
    `Accept, decline or call the customer: ${answerUrl}`,
    "",
    `No account needed. Reference ${lead.reference}.`,
  ].join("\n");
  const html = shell(
    emergency ? "Emergency job near you" : "New job request",
    para(intro) +
      table(rows) +
      para(clock) +
      button(answerUrl, "Accept or decline") +
      para(`No account needed. Reference ${lead.reference}.`),
  );
  const sms = `${SITE.name}: ${emergency ? "EMERGENCY job" : "New job"} - ${service}${place ? `, ${place}` : ""}. Answer by ${due}: ${answerUrl}`;
  return { subject, text, html, sms };
}

/** To the visitor after a business answered. */
export function answerUpdate(
  lead: Lead,
  delivery: Delivery,
  kind: "accepted" | "declined" | "called",
  statusUrl: string,
): Written {
  const terms = [
    delivery.window ? `When: ${delivery.window}` : "",
    delivery.price ? `Price: ${delivery.price}` : "",
  ].filter(Boolean);
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
  const lines = [headline + ".", ...terms, "", detail, "", `Reference ${lead.reference}. Your request: ${statusUrl}`];
  const html = shell(
    headline,
    para(detail) +
      (terms.length ? table(terms.map((t) => t.split(": ", 2) as [string, string])) : "") +
      button(statusUrl, "See your request") +
      para(`Reference ${lead.reference}`),
  );
  return { subject: oneLine(`${headline} (${lead.reference})`), text: lines.join("\n"), html };
}

/** To the visitor a few days after a pro accepted: how did it go? (the only verified reviews) */
export function reviewInvite(lead: Lead, delivery: Delivery, reviewUrl: string): Written {
  const s = summarizeLead(lead);
  const line = `${delivery.name} accepted your request ${lead.reference ?? ""} a few days ago. How did the job go? Your review shows as Verified on their page, because it comes from a job booked through ${SITE.name}.`;
  return {
    subject: oneLine(`How did ${delivery.name} do? (${lead.reference})`),
    text: [`Hi ${s.name},`, "", line, "", `Write your review: ${reviewUrl}`].join("\n"),
    html: shell(
      `How did ${delivery.name} do?`,
      para(`Hi ${s.name},`) + para(line) + button(reviewUrl, "Write your review"),
    ),
  };
}

/** To the visitor when the clock offered the request to one more pro. */
export function passedOn(lead: Lead, delivery: Delivery, statusUrl: string): Written {
  const line = `Nobody answered in time, so we've also sent your request to ${delivery.name}.`;
  return {
    subject: oneLine(`We've passed your request to ${delivery.name} (${lead.reference})`),
    text: [line, "", nextStep(lead), "", `Your request: ${statusUrl}`].join("\n"),
    html: shell(
      "We've passed your request on",
      para(line) + para(nextStep(lead)) + button(statusUrl, "See your request"),
    ),
  };
}

/** To the visitor when the operator takes over. */
export function operatorHasIt(lead: Lead, statusUrl: string): Written {
  const emergency = lead.urgency === "emergency";
  const line = emergency
    ? `No pro has confirmed your emergency yet, so our own team has it now. Call ${SITE.phone} for dispatch within ${EMERGENCY_RESPONSE.dispatchMinutes} minutes.`
    : "Our team has your request now and will call you to find a pro who can take it.";
  return {
    subject: oneLine(`Our team has your request (${lead.reference})`),
    text: [line, "", `Your request: ${statusUrl}`].join("\n"),
    html: shell("Our team has your request", para(line) + button(statusUrl, "See your request")),
  };
}

/** To the operator: a lead needs a person. */
export function escalation(lead: Lead, reason: string, adminUrl: string, business?: Delivery): Written {
  const s = summarizeLead(lead);
  const why = business
    ? `${business.name}: ${ROUTING_REASON_LABELS[reason] ?? reason}`
    : (ROUTING_REASON_LABELS[reason] ?? reason);
  const emergency = lead.urgency === "emergency";
  const rows: [string, string][] = [
    ["Why", why],
    ["Who", s.name],
    ...(s.phone ? [["Phone", s.phone] as [string, string]] : []),
    ...jobRows(lead),
  ];
  return {
    subject: oneLine(`${emergency ? "EMERGENCY " : ""}needs you: ${lead.reference} - ${why}`),
    text: [
      `${lead.reference} needs a person: ${why}.`,
      "",
      ...rows.map(([l, v]) => `${l}: ${v}`),
      "",
      `Open in admin: ${adminUrl}`,
    ].join("\n"),
    html: shell(`${lead.reference} needs you`, table(rows) + button(adminUrl, "Open in admin")),
  };
}

export const declineLabel = (reason: string | undefined) =>
  DECLINE_REASONS.find((r) => r.value === reason)?.label ?? "No reason given";
