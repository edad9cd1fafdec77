/**
 * What every message is made of. This folder is where the site's messages are worded, one
 * file per family (visitor.ts receipts and updates, job.ts offers, operator.ts alerts,
 * review.ts invitations, owner.ts owners' links, codes and decisions), each message written
 * once for all its channels; which ones a lead owes is delivery/compose.ts, sending is notify/.
 * Here: the shape a message is written in (one subject, text and HTML, plus the SMS and the
 * webhook body when it goes those ways) and the e-mail's parts, styled inline because e-mail
 * clients take no stylesheet.
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { summarizeLead, type LeadSummary } from "../../../src/lib/lead-summary.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { SITE } from "../../../src/lib/site.ts";

/** A Slack-compatible webhook body: `text` for notifications, `blocks` for Slack itself. */
export interface WebhookBody {
  text: string;
  blocks?: Record<string, unknown>[];
}

/** One message, worded once for every channel it may go by. */
export interface Written {
  /** The e-mail's subject; for the other channels, the line the admin's Messages view shows. */
  subject: string;
  /** The e-mail's text part (and what a webhook or kept message shows). */
  text: string;
  /** The e-mail's HTML part; absent for a message that only goes by text. */
  html?: string;
  /** The text message, for a message that goes by SMS. */
  sms?: string;
  /** The operator's webhook body, for a message to the operator. */
  webhook?: WebhookBody;
}

/** A lead and its summary, worked out once per composition and read by every message about it. */
export interface LeadFacts {
  lead: Lead;
  summary: LeadSummary;
}

export const leadFacts = (lead: Lead): LeadFacts => ({ lead, summary: summarizeLead(lead) });

/** A subject stays one line, whatever the visitor typed. */
export const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").slice(0, 150);

/** The site's forest-700 and forest-950 (src/styles/global.css), which e-mail cannot read as variables. */
const BRAND = "#24583b";
const HEADING = "#0d2116";

export const button = (href: string, label: string) =>
  `<p style="margin:20px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:${BRAND};color:#fff;padding:12px 20px;border-radius:8px;font-weight:700;text-decoration:none">${escapeHtml(label)}</a></p>`;

export const para = (text: string) => `<p style="margin:12px 0">${escapeHtml(text)}</p>`;

/** A paragraph nobody may miss: the emergency line. */
export const warning = (text: string) =>
  `<p style="margin:12px 0;font-weight:700;color:#991b1b">${escapeHtml(text)}</p>`;

/** One row: label, value, and a link for the value (tel:, mailto:) when it has one. */
export type Row = readonly [label: string, value: string, href?: string];

export const table = (rows: readonly Row[]) =>
  `<table role="presentation" style="border-collapse:collapse">${rows
    .map(([label, value, href]) => {
      const cell = href ? `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>` : escapeHtml(value);
      return `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${cell}</td></tr>`;
    })
    .join("")}</table>`;

/** Rows as the text part shows them. */
export const textRows = (rows: readonly Row[]) => rows.map(([label, value]) => `${label}: ${value}`);

/** Every e-mail: a heading, its body, and who sent it. */
export const shell = (heading: string, body: string) =>
  `<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1e293b;line-height:1.5;max-width:560px">` +
  `<h2 style="margin:0 0 12px;color:${HEADING}">${escapeHtml(heading)}</h2>${body}` +
  `<p style="margin-top:24px;font-size:13px;color:#475569">${escapeHtml(SITE.name)} · ${escapeHtml(SITE.phone)} · ${escapeHtml(SITE.email)}</p></div>`;

/** A mailto: link that keeps the @ readable. */
export const mailtoHref = (email: string) => `mailto:${encodeURIComponent(email).replace(/%40/g, "@")}`;
