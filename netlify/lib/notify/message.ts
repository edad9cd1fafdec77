/**
 * What the operator receives for a new lead: a Slack-compatible webhook body (`text` for
 * notifications and clients without blocks, `blocks` for Slack) and an e-mail. Both say
 * who, what, how to call them back and where the lead is in /admin. Lead fields are the
 * visitor's own text: escaped for Slack's mrkdwn and for HTML, never interpreted.
 */
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import { telHref } from "../../../src/lib/site.ts";

/** Where the lead opens in the inbox; the fragment keeps the id out of server logs. */
export const adminLeadUrl = (siteUrl: string, leadId: string) => `${siteUrl}/admin#lead=${encodeURIComponent(leadId)}`;

/** Slack mrkdwn treats &, < and > as markup; a visitor's "<!channel>" must stay text. */
export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export interface WebhookMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

function fieldsOf(lead: Lead) {
  const s = summarizeLead(lead);
  const rows: [label: string, plain: string, mrkdwn: string][] = [["Who", s.name, slackEscape(s.name)]];
  if (s.company) rows.push([lead.type === "booking" ? "Business" : "Company", s.company, slackEscape(s.company)]);
  rows.push(["What", s.what, slackEscape(s.what)]);
  if (s.phone) rows.push(["Phone", s.phone, `<${telHref(s.phone)}|${slackEscape(s.phone)}>`]);
  if (s.email)
    rows.push([
      "E-mail",
      s.email,
      `<mailto:${encodeURIComponent(s.email).replace(/%40/g, "@")}|${slackEscape(s.email)}>`,
    ]);
  if (s.estimate) rows.push(["Estimate", s.estimate, slackEscape(s.estimate)]);
  if (s.place) rows.push([lead.type === "find-pros" ? "Location" : "Address", s.place, slackEscape(s.place)]);
  return { summary: s, rows };
}

/** "EMERGENCY " before an emergency's alerts: the operator sees it first in any inbox. */
const flag = (lead: Lead) => (lead.urgency === "emergency" ? "EMERGENCY " : "");
const ref = (lead: Lead) => (lead.reference ? ` (${lead.reference})` : "");

export function webhookMessage(lead: Lead, siteUrl: string): WebhookMessage {
  const { summary, rows } = fieldsOf(lead);
  const title = `${flag(lead)}New ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()}${ref(lead)}`;
  const link = adminLeadUrl(siteUrl, lead.id);
  const text =
    `${title} from ${slackEscape(summary.name)}: ${slackEscape(summary.what)}` +
    (summary.phone ? ` - call <${telHref(summary.phone)}|${slackEscape(summary.phone)}>` : "") +
    (summary.estimate ? ` - estimate ${slackEscape(summary.estimate)}` : "") +
    ` - <${link}|open in admin>`;
  return {
    text,
    blocks: [
      { type: "header", text: { type: "plain_text", text: title, emoji: false } },
      // Slack shows at most 10 fields per section.
      {
        type: "section",
        fields: rows.slice(0, 10).map(([label, , value]) => ({ type: "mrkdwn", text: `*${label}*\n${value}` })),
      },
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Open in admin" }, url: link, action_id: "open-lead" },
        ],
      },
      { type: "context", elements: [{ type: "mrkdwn", text: `${lead.id} - ${lead.createdAt}` }] },
    ],
  };
}

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

export function emailMessage(lead: Lead, siteUrl: string): EmailMessage {
  const { summary, rows } = fieldsOf(lead);
  const link = adminLeadUrl(siteUrl, lead.id);
  // Header injection is the provider's problem to refuse, but a subject stays one line anyway.
  const subject = `${flag(lead)}${LEAD_TYPE_SINGULAR[lead.type]}: ${summary.name}${ref(lead)}`
    .replace(/[\r\n]+/g, " ")
    .slice(0, 150);
  const text = [...rows.map(([label, plain]) => `${label}: ${plain}`), "", `Open in admin: ${link}`].join("\n");
  const cells = rows
    .map(([label, plain]) => {
      const value =
        label === "Phone"
          ? `<a href="${escapeHtml(telHref(plain))}">${escapeHtml(plain)}</a>`
          : label === "E-mail"
            ? `<a href="mailto:${escapeHtml(plain)}">${escapeHtml(plain)}</a>`
            : escapeHtml(plain);
      return `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0">${value}</td></tr>`;
    })
    .join("");
  const html =
    `<h2 style="margin:0 0 12px">${escapeHtml(`${flag(lead)}New ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()}${ref(lead)}`)}</h2>` +
    `<table role="presentation" style="border-collapse:collapse">${cells}</table>` +
    `<p style="margin-top:16px"><a href="${escapeHtml(link)}">Open in admin</a></p>`;
  return { subject, text, html };
}
