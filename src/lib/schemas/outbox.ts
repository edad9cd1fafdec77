/**
 * The notification outbox item, the one retry queue for every message the site sends: one per
 * lead (written by the store with the lead) and one per owner's claim whose sign-in link, code
 * or decision must be sent again. Read by the notifier and shown in the admin's Notifications
 * tab, it names its subject, never its contents.
 */
import { z } from "../zod.ts";
import { LEAD_TYPES } from "../lead-types.ts";

/** What an item delivers: a lead's messages (the lead's type), an owner's ("owner"), or one webhook delivery ("webhook", id `wd_...`). */
export const OutboxType = z.enum([...LEAD_TYPES, "owner", "webhook"]);
export type OutboxType = z.infer<typeof OutboxType>;

/** A notification waiting in the outbox (one per lead or claim). */
export const OutboxItem = z.object({
  /** The lead it announces, or the owner's claim (`cl_...`) whose messages wait; the item's id too. */
  leadId: z.string(),
  /** The lead's type, or "owner" (never its contents: the item is safe to show and to log). */
  type: OutboxType,
  /** When the lead arrived, or the owner's message was first tried (ISO). */
  createdAt: z.iso.datetime({ offset: true }),
  /** Delivery attempts so far. */
  attempts: z.number().int().min(0),
  /** Earliest next attempt (ISO). */
  nextAttemptAt: z.iso.datetime({ offset: true }),
  /** When the last attempt ran (ISO), if one did. */
  lastAttemptAt: z.iso.datetime({ offset: true }).optional(),
  /** Why the last attempt failed: channel and status or error class, never personal data. */
  lastError: z.string().max(300).optional(),
  /** Channels already delivered (a retry only sends the rest). */
  delivered: z.array(z.enum(["webhook", "email"])).default([]),
});
export type OutboxItem = z.output<typeof OutboxItem>;
