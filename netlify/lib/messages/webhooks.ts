/**
 * To a business's owners about one of its webhook endpoints: failing (warned once, before
 * anything is disabled) and disabled (410 Gone, or every retry over about a day failed).
 * Each names the endpoint and says what to do; nothing of any lead is in them.
 */
import { SITE } from "../../../src/lib/site.ts";
import type { OwnerMessage } from "./owner.ts";
import { button, para, shell } from "./parts.ts";

interface About {
  businessName: string;
  url: string;
  reason: string;
  /** The owner page's webhooks section. */
  pageUrl: string;
}

/** Failures in a row: nothing is disabled yet. */
export function webhookFailing(o: About): OwnerMessage {
  const opening = `${SITE.name} could not deliver events to your webhook for ${o.businessName}: ${o.url} (${o.reason}).`;
  const next =
    "We keep trying for about a day. If every try fails, we disable the webhook and tell you. Your leads still reach you by e-mail or text as usual.";
  return {
    kind: "webhook-failing",
    channel: "email",
    written: {
      subject: `Your ${SITE.name} webhook is failing`,
      text: [opening, "", next, "", `See the delivery log: ${o.pageUrl}`].join("\n"),
      html: shell("Your webhook is failing", para(opening) + para(next) + button(o.pageUrl, "See the delivery log")),
    },
  };
}

/** Disabled: no more events go to it until the owner enables it again. */
export function webhookDisabled(o: About): OwnerMessage {
  const opening = `${SITE.name} disabled your webhook for ${o.businessName}: ${o.url}. ${o.reason}`;
  const next =
    "No more events go to it. Fix the receiver, then enable it again on your owner page; you can send missed events again from its log. Your leads still reach you by e-mail or text as usual.";
  return {
    kind: "webhook-disabled",
    channel: "email",
    written: {
      subject: `Your ${SITE.name} webhook was disabled`,
      text: [opening, "", next, "", `Your webhooks: ${o.pageUrl}`].join("\n"),
      html: shell("Your webhook was disabled", para(opening) + para(next) + button(o.pageUrl, "Your webhooks")),
    },
  };
}
