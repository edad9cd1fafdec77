/**
 * Operator alerts: a new lead, and a lead that needs a person (no pro answered, a business
 * cannot be reached). Each goes by e-mail and by the Slack-compatible webhook; both say who,
 * what, how to call them back and where the lead is in /admin. Lead fields are the visitor's
 * own text: escaped for Slack's mrkdwn and for HTML, never interpreted.
 */
import { LEAD_TYPE_SINGULAR } from "../../../src/lib/admin.ts";
import { ROUTING_REASON_LABELS } from "../../../src/lib/lead-routing.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { telHref } from "../../../src/lib/site.ts";
import { jobRows } from "./job.ts";
import {
  button,
  mailtoHref,
  oneLine,
  shell,
  table,
  textRows,
  type LeadFacts,
  type Row,
  type Written,
} from "./parts.ts";

/** Where the lead opens in the inbox; the fragment keeps the id out of server logs. */
export const adminLeadUrl = (siteUrl: string, leadId: string) => `${siteUrl}/admin#lead=${encodeURIComponent(leadId)}`;

/** Slack mrkdwn treats &, < and > as markup; a visitor's "<!channel>" must stay text. */
export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const mrkdwn = ([, value, href]: Row) => (href ? `<${href}|${slackEscape(value)}>` : slackEscape(value));

/** "EMERGENCY " before an emergency's alerts: the operator sees it first in any inbox. */
const flag = (lead: Lead) => (lead.urgency === "emergency" ? "EMERGENCY " : "");
const ref = (lead: Lead) => (lead.reference ? ` (${lead.reference})` : "");

/** Who the visitor is and how to reach them, then what they asked. */
function contactRows({ lead, summary: s }: LeadFacts): Row[] {
  const rows: Row[] = [["Who", s.name]];
  if (s.company) rows.push([lead.type === "booking" ? "Business" : "Company", s.company]);
  rows.push(["What", s.what]);
  if (s.phone) rows.push(["Phone", s.phone, telHref(s.phone)]);
  if (s.email) rows.push(["E-mail", s.email, mailtoHref(s.email)]);
  if (s.estimate) rows.push(["Estimate", s.estimate]);
  if (s.place) rows.push([lead.type === "find-pros" ? "Location" : "Address", s.place]);
  return rows;
}

/** A new lead: e-mail, and the webhook's text and Slack blocks. */
export function newLeadAlert(facts: LeadFacts, adminUrl: string): Written {
  const { lead, summary: s } = facts;
  const rows = contactRows(facts);
  const title = `${flag(lead)}New ${LEAD_TYPE_SINGULAR[lead.type].toLowerCase()}${ref(lead)}`;
  const text =
    `${title} from ${slackEscape(s.name)}: ${slackEscape(s.what)}` +
    (s.phone ? ` - call <${telHref(s.phone)}|${slackEscape(s.phone)}>` : "") +
    (s.estimate ? ` - estimate ${slackEscape(s.estimate)}` : "") +
    ` - <${adminUrl}|open in admin>`;
  return {
    subject: oneLine(`${flag(lead)}${LEAD_TYPE_SINGULAR[lead.type]}: ${s.name}${ref(lead)}`),
    text: [...textRows(rows), "", `Open in admin: ${adminUrl}`].join("\n"),
    html: shell(title, table(rows) + button(adminUrl, "Open in admin")),
    webhook: {
      text,
      blocks: [
        { type: "header", text: { type: "plain_text", text: title, emoji: false } },
        // Slack shows at most 10 fields per section.
        {
          type: "section",
          fields: rows.slice(0, 10).map((row) => ({ type: "mrkdwn", text: `*${row[0]}*\n${mrkdwn(row)}` })),
        },
        {
          type: "actions",
          elements: [
            {
              type: "button",
              text: { type: "plain_text", text: "Open in admin" },
              url: adminUrl,
              action_id: "open-lead",
            },
          ],
        },
        { type: "context", elements: [{ type: "mrkdwn", text: `${lead.id} - ${lead.createdAt}` }] },
      ],
    },
  };
}

/** A lead needs a person: why (a routing reason, for one business or the whole lead), who, the job. */
export function escalation(
  { lead, summary: s }: LeadFacts,
  reason: string,
  adminUrl: string,
  business?: Delivery,
): Written {
  const label = ROUTING_REASON_LABELS[reason] ?? reason;
  const why = business ? `${business.name}: ${label}` : label;
  const rows: Row[] = [
    ["Why", why],
    ["Who", s.name],
    ...(s.phone ? [["Phone", s.phone, telHref(s.phone)] as const] : []),
    ...jobRows(lead, s),
  ];
  const subject = oneLine(`${flag(lead)}needs you: ${lead.reference} - ${why}`);
  return {
    subject,
    text: [`${lead.reference} needs a person: ${why}.`, "", ...textRows(rows), "", `Open in admin: ${adminUrl}`].join(
      "\n",
    ),
    html: shell(`${lead.reference} needs you`, table(rows) + button(adminUrl, "Open in admin")),
    webhook: { text: `${subject}\n${adminUrl}` },
  };
}
