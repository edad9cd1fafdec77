/**
 * The notification outbox item (one per lead): written by the store with the lead, read by the
 * notifier and shown in the admin's Notifications tab. It names the lead, never its contents.
 */
import { z } from "../zod.ts";
import { LeadType } from "./lead.ts";

/** A notification waiting in the outbox (one per lead). */
export const OutboxItem = z.object({
  /** The lead it announces (the item's id too). */
  leadId: z.string(),
  /** The lead's type (never its contents: the item is safe to show and to log). */
  type: LeadType,
  /** When the lead arrived (ISO). */
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
