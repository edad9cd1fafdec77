/**
 * What the claim and sign-in flows send: a sign-in link by e-mail, a code by SMS, the
 * operator's approval (with a link) or refusal (with the reason). Each is a Message in the
 * message log under the claim's id (its `leadId`), with an id fixed by claim and kind, so a
 * retried request never sends one twice; without a provider it is kept for /admin.
 */
import type { Message } from "../../../src/lib/schemas/message.ts";
import { CODE_TTL_MS, SIGN_IN_LINK_TTL_MS, linkLifetime } from "../../../src/lib/owners/limits.ts";
import { SITE } from "../../../src/lib/site.ts";
import { KEPT_NOTES } from "../delivery/compose.ts";
import { button, para, shell } from "../delivery/content.ts";
import { notifyConfig } from "../notify/index.ts";
import type { Env } from "../http.ts";

export type OwnerMessageKind = "owner-sign-in" | "owner-code" | "claim-approved" | "claim-refused";

interface Draft {
  claimId: string;
  kind: OwnerMessageKind;
  channel: "email" | "sms";
  to: string;
  toName?: string;
  subject: string;
  text: string;
  html?: string;
}

function toMessage(d: Draft, env: Env, now: number): Message {
  const config = notifyConfig(env);
  const provider = d.channel === "email" ? config.resend : config.sms;
  const note = provider ? undefined : d.channel === "email" ? KEPT_NOTES.email : KEPT_NOTES.sms;
  return {
    id: `${d.claimId}~${d.kind}~${d.channel}`,
    leadId: d.claimId,
    kind: d.kind,
    audience: "business",
    channel: d.channel,
    to: d.to,
    ...(d.toName ? { toName: d.toName.slice(0, 200) } : {}),
    subject: d.subject.slice(0, 300),
    text: d.text,
    ...(d.html ? { html: d.html } : {}),
    state: note ? "kept" : "queued",
    ...(note ? { note } : {}),
    createdAt: new Date(now).toISOString(),
    attempts: 0,
  };
}

/** The one-time sign-in link, to the address that proves the claim (or an approved claimant). */
export function signInEmail(
  o: {
    claimId: string;
    to: string;
    toName?: string;
    businessName: string;
    url: string;
    approved?: boolean;
    /** How long the link works (default SIGN_IN_LINK_TTL_MS). */
    ttlMs?: number;
  },
  env: Env,
  now: number,
): Message {
  const lead = o.approved
    ? `Treeline approved your claim: you can now manage ${o.businessName}'s page on ${SITE.name}.`
    : `Someone (we hope you) asked to manage ${o.businessName}'s page on ${SITE.name}.`;
  const rule = `The link works once, for ${linkLifetime(o.ttlMs ?? SIGN_IN_LINK_TTL_MS)}. If you didn't ask for it, ignore this e-mail: nothing changes.`;
  return toMessage(
    {
      claimId: o.claimId,
      kind: o.approved ? "claim-approved" : "owner-sign-in",
      channel: "email",
      to: o.to,
      toName: o.toName,
      subject: o.approved ? `Your claim of ${o.businessName} is approved` : `Sign in to manage ${o.businessName}`,
      text: [lead, "", `Sign in: ${o.url}`, "", rule].join("\n"),
      html: shell(`Manage ${o.businessName}`, para(lead) + button(o.url, "Sign in") + para(rule)),
    },
    env,
    now,
  );
}

/** The SMS code, to the phone on file. */
export function codeSms(
  o: { claimId: string; to: string; businessName: string; code: string },
  env: Env,
  now: number,
): Message {
  const text = `${SITE.name}: ${o.code} is your code to manage ${o.businessName}. It works for ${linkLifetime(CODE_TTL_MS)}. If you didn't ask for it, ignore this text.`;
  return toMessage(
    {
      claimId: o.claimId,
      kind: "owner-code",
      channel: "sms",
      to: o.to,
      toName: o.businessName,
      subject: `Sign-in code for ${o.businessName}`,
      text,
    },
    env,
    now,
  );
}

/** The operator refused a claim or a new business: the claimant reads why. */
export function refusedEmail(
  o: { claimId: string; to: string; toName?: string; businessName: string; reason: string },
  env: Env,
  now: number,
): Message {
  const line = `Treeline could not approve your request to manage ${o.businessName}.`;
  const why = `Reason: ${o.reason}`;
  const next = `If you think this is a mistake, reply to this e-mail with what shows the business is yours.`;
  return toMessage(
    {
      claimId: o.claimId,
      kind: "claim-refused",
      channel: "email",
      to: o.to,
      toName: o.toName,
      subject: `Your request for ${o.businessName}`,
      text: [line, "", why, "", next].join("\n"),
      html: shell(`Your request for ${o.businessName}`, para(line) + para(why) + para(next)),
    },
    env,
    now,
  );
}
