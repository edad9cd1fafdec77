/**
 * The homeowner's part of their status page after a pro accepted (src/components/task/JobDone.astro):
 * "The job is done" for each job a pro holds whose time has not come, and, once it has (the
 * job's day over, or marked done), the link to review that pro, the same signed invitation the
 * e-mail carries. The form posts to /requests/{id}/{sig}/done (netlify/functions/request-done.mts).
 */
import { REVIEW_LINK_TTL_MS } from "../delivery/compose.ts";
import { DONE_FORM } from "../delivery/accepted.ts";
import { invitedReviewId } from "../delivery/review-invite.ts";
import { reviewTime } from "../delivery/review-time.ts";
import { signerFor } from "../delivery/signing.ts";
import { getStore, type Store } from "../store/index.ts";
import { readFlash } from "./flash.ts";

export interface JobDoneView {
  /** Where "The job is done" posts. */
  action: string;
  /** Jobs a pro holds whose time has not come: the form's choices. */
  open: { businessId: string; name: string }[];
  /** Jobs whose time has come: the link to review each pro, or that the review is in. */
  ready: { name: string; reviewHref: string; reviewed: boolean }[];
  /** The line after the form's post. */
  notice?: string;
  problem?: string;
}

const PARAM = /^[A-Za-z0-9_-]{1,40}$/;

/** What the status page at `url` shows about the jobs pros accepted; null when there are none (or no lead). */
export async function loadJobDone(
  leadId: string,
  sig: string,
  url: URL,
  now = Date.now(),
  store: () => Store = getStore,
): Promise<JobDoneView | null> {
  try {
    if (!PARAM.test(leadId) || !PARAM.test(sig)) return null;
    const s = store();
    const signer = await signerFor(s);
    if (!signer.checkStatus(leadId, sig)) return null;
    const lead = await s.leads.get(leadId);
    const held = (lead?.routing?.deliveries ?? []).flatMap((d) => {
      const due = lead && reviewTime(lead, d);
      return due ? [{ delivery: d, due }] : [];
    });
    if (!lead || held.length === 0) return null;
    const ready = await Promise.all(
      held
        .filter((h) => h.due.at <= now)
        .map(async ({ delivery, due }) => ({
          name: delivery.name,
          reviewHref: signer.reviewPath(lead.id, delivery.businessId, due.at + REVIEW_LINK_TTL_MS),
          reviewed: (await s.reviews.get(invitedReviewId(lead.id, delivery.businessId))) !== null,
        })),
    );
    const flash = await readFlash(url, store);
    const mine = flash && (flash.form === DONE_FORM || flash.status !== 200) ? flash : null;
    return {
      action: `${url.pathname.replace(/\/$/, "")}/done`,
      open: held
        .filter((h) => h.due.at > now)
        .map((h) => ({ businessId: h.delivery.businessId, name: h.delivery.name })),
      ready,
      ...(mine?.notice ? { notice: mine.notice } : {}),
      ...(mine?.problem ? { problem: mine.problem } : {}),
    };
  } catch (error) {
    // The rest of the status page still shows; this part waits for the store to answer.
    console.error(`[delivery] job done: store unavailable (${error instanceof Error ? error.name : typeof error})`);
    return null;
  }
}
