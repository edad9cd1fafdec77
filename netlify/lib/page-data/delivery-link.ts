/**
 * What every page behind a lead's links shares: why a link opens nothing, the store outage,
 * the loader wrapper that turns a failing store into that outage, and an offer's terms.
 */
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import { errorName } from "../http.ts";

/** Why a link opens nothing: tampered with, expired, or its lead or offer is gone. */
export type LinkProblem = "invalid" | "expired" | "gone";

/** Each problem's heading, text and status. */
export const LINK_PROBLEMS: Record<LinkProblem, { title: string; text: string; status: number }> = {
  invalid: {
    title: "This link isn't valid",
    text: "Check that you opened the whole link from the message we sent you, or call us.",
    status: 404,
  },
  expired: {
    title: "This link has expired",
    text: "Answer links work for 7 days. If you still want this job, call us and we'll put you in touch.",
    status: 410,
  },
  gone: {
    title: "This request is no longer available",
    text: "It may have been withdrawn. Call us if you think this is a mistake.",
    status: 404,
  },
};

/** A page's load: its content, a link that opens nothing, or a store that did not answer (503). */
export type Loaded<T> =
  { ok: true; page: T } | { ok: false; problem: LinkProblem } | { ok: false; problem: "unavailable" };

/** The store outage's heading and text (503). */
export const UNAVAILABLE = {
  title: "Something went wrong",
  text: "We couldn't load this page right now. Please try again in a moment, or call us.",
  status: 503,
};

/** Runs a loader; a failing store is the "unavailable" outcome, logged by its class only. */
export async function loading<T>(log: string, run: () => Promise<Loaded<T>>): Promise<Loaded<T>> {
  try {
    return await run();
  } catch (error) {
    console.error(`[delivery] ${log}: store unavailable (${errorName(error)})`);
    return { ok: false, problem: "unavailable" };
  }
}

/** A label-value row of a table. */
export type Row = [label: string, value: string];

/** The shape of an answer or review link's token, checked before the signature is. */
export const LINK_TOKEN = /^[A-Za-z0-9._-]{20,200}$/;

/** An accepted offer's terms on one line ("When: ... · Price: ..."), or "". */
export const offerTerms = (d: Delivery) =>
  [d.window ? `When: ${d.window}` : "", d.price ? `Price: ${d.price}` : ""].filter(Boolean).join(" · ");
