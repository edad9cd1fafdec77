/**
 * Owner links, codes and decisions: the one-time sign-in link (e-mail), the sign-in code
 * (SMS), and the operator's answer to a claim (approved: a link; refused: the reason). Each
 * says how long what it carries works and what to do if the reader never asked for it.
 */
import { CODE_DIGITS, CODE_TTL_MS, SIGN_IN_LINK_TTL_MS, linkLifetime } from "../../../src/lib/owners/limits.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { SITE } from "../../../src/lib/site.ts";
import { button, para, shell, type Written } from "./parts.ts";

export type OwnerMessageKind =
  "owner-sign-in" | "owner-code" | "claim-approved" | "claim-refused" | "webhook-failing" | "webhook-disabled";

/** A message to a business owner: what it is, how it goes, what it says. */
export interface OwnerMessage {
  kind: OwnerMessageKind;
  channel: "email" | "sms";
  written: Written;
}

/** The sign-in link's subject, and the title of the page the link opens. */
export const signInTitle = (businessName: string) => `Sign in to manage ${businessName}`;

/** The one-time sign-in link, to the address that proves the claim (or an approved claimant). */
export function signInLink(o: {
  businessName: string;
  url: string;
  /** The operator approved the claim: the link says so. */
  approved?: boolean;
  /** How long the link works (default SIGN_IN_LINK_TTL_MS). */
  ttlMs?: number;
}): OwnerMessage {
  const opening = o.approved
    ? `${SITE.name} approved your claim: you can now manage the listing for ${o.businessName} on ${SITE.name}.`
    : `Someone (we hope you) asked to manage the listing for ${o.businessName} on ${SITE.name}.`;
  const rule = `The link works once, for ${linkLifetime(o.ttlMs ?? SIGN_IN_LINK_TTL_MS)}. If you didn't ask for it, ignore this e-mail: nothing changes.`;
  return {
    kind: o.approved ? "claim-approved" : "owner-sign-in",
    channel: "email",
    written: {
      subject: o.approved ? `Your claim of ${o.businessName} is approved` : signInTitle(o.businessName),
      text: [opening, "", `Sign in: ${o.url}`, "", rule].join("\n"),
      html: shell(`Manage ${o.businessName}`, para(opening) + button(o.url, "Sign in") + para(rule)),
    },
  };
}

/** A returning owner's sign-in link, by text to the business's phone on file (asked for at /owner). */
export function signInLinkText(o: { businessName: string; url: string }): OwnerMessage {
  const sms = `${SITE.name}: sign in to manage ${o.businessName}: ${o.url} (works once, for ${linkLifetime(SIGN_IN_LINK_TTL_MS)}). If you didn't ask for it, ignore this text.`;
  return {
    kind: "owner-sign-in",
    channel: "sms",
    written: { subject: signInTitle(o.businessName), text: sms, sms },
  };
}

/** The sign-in code, by text to the phone on file. */
export function signInCode(o: { businessName: string; code: string }): OwnerMessage {
  const sms = `${SITE.name}: ${o.code} is your code to manage ${o.businessName}. It works for ${linkLifetime(CODE_TTL_MS)}. If you didn't ask for it, ignore this text.`;
  return {
    kind: "owner-code",
    channel: "sms",
    written: { subject: `Sign-in code for ${o.businessName}`, text: sms, sms },
  };
}

/** The operator refused a claim or a new business: the claimant reads why. */
export function claimRefused(o: { businessName: string; reason: string }): OwnerMessage {
  const subject = `Your request for ${o.businessName}`;
  const line = `${SITE.name} could not approve your request to manage ${o.businessName}.`;
  const why = `Reason: ${o.reason}`;
  const next = "If you think this is a mistake, reply to this e-mail with what shows the business is yours.";
  return {
    kind: "claim-refused",
    channel: "email",
    written: {
      subject,
      text: [line, "", why, "", next].join("\n"),
      html: shell(subject, para(line) + para(why) + para(next)),
    },
  };
}

// ---------------------------------------------------------------------------------------
// What the message log keeps once a message went

/** What stands in the log for a sign-in link, and for a sign-in code, once the message went. */
export const LINK_REMOVED = "[sign-in link removed once sent]";
export const CODE_REMOVED = "[code removed once sent]";

/** A sign-in link as any message writes it (with or without its origin; its token is 43 base64url characters). */
const SIGN_IN_URL = /(?:https?:\/\/[^\s"'<>/]+)?\/owner\/sign-in\/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
/** The code in a sign-in code's text (any run of exactly that many digits: a business name's too, harmlessly). */
const CODE = new RegExp(`(?<!\\d)\\d{${CODE_DIGITS}}(?!\\d)`, "g");

/**
 * A message as the log may keep it once a provider took it, or refused it for good: every
 * sign-in link and code replaced, so a copy of the log (or /admin) signs nobody in. Only the
 * receiver needs them, and the store checks them by hash. Other messages come back unchanged
 * (the same object).
 */
export function withoutSignInSecrets(m: Message): Message {
  const clean = (text: string) => {
    const linkless = text.replace(SIGN_IN_URL, LINK_REMOVED);
    return m.kind === "owner-code" ? linkless.replace(CODE, CODE_REMOVED) : linkless;
  };
  const text = clean(m.text);
  const subject = clean(m.subject);
  const html = m.html === undefined ? undefined : clean(m.html);
  const payload = m.payload === undefined ? undefined : clean(m.payload);
  if (text === m.text && subject === m.subject && html === m.html && payload === m.payload) return m;
  return {
    ...m,
    subject,
    text,
    ...(html === undefined ? {} : { html }),
    ...(payload === undefined ? {} : { payload }),
  };
}

/** Whether the log keeps a message's secrets: only while it may still be sent, or when nothing can send it. */
export const keepsSecrets = (m: Pick<Message, "state">) => m.state !== "sent" && m.state !== "failed";
