/**
 * What the launch checklist (/admin > Setup, and the server's log at start) reads from the
 * store: each scheduled function's recent runs, and the last send on each channel. Written by
 * the scheduled functions (netlify/lib/scheduled-run.ts) and the send path
 * (netlify/lib/notify/send.ts); never any message content, address or lead data.
 */
import { z } from "../zod.ts";

/** The scheduled functions (netlify/functions with config.schedule), by file name. */
export const SCHEDULED_FUNCTIONS = ["lead-clock", "notify-outbox", "storm-alerts"] as const;
export const ScheduledFunction = z.enum(SCHEDULED_FUNCTIONS);
export type ScheduledFunction = z.infer<typeof ScheduledFunction>;

/**
 * ok: the run did everything due; partial: its time budget ran out and it left work for the
 * next run (nothing lost); failed: it stopped on an error (the work stays for the next run).
 */
export const RUN_OUTCOMES = ["ok", "partial", "failed"] as const;
export const RunOutcome = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof RunOutcome>;

/** One run of a scheduled function. */
export const RunRecord = z.object({
  name: ScheduledFunction,
  /** ISO. */
  startedAt: z.iso.datetime({ offset: true }),
  /** ISO. */
  finishedAt: z.iso.datetime({ offset: true }),
  durationMs: z.number().int().min(0),
  outcome: RunOutcome,
  /** What it did, by name ("handled": 3, "left": 0); whole numbers. */
  counts: z.record(z.string().max(40), z.number().int().min(0)).default({}),
  /** The error's class (never its message, which can quote input). */
  error: z.string().max(200).optional(),
});
export type RunRecord = z.output<typeof RunRecord>;
export type RunRecordInput = z.input<typeof RunRecord>;

/** The channels a send goes out on (a message's channel, less "admin", which keeps it). */
export const SEND_CHANNELS = ["email", "sms", "webhook"] as const;
export const SendChannel = z.enum(SEND_CHANNELS);
export type SendChannel = z.infer<typeof SendChannel>;

/** The last attempt on one channel: did the provider accept it. */
export const SendResult = z.object({
  channel: SendChannel,
  outcome: z.enum(["accepted", "failed"]),
  /** ISO: when the provider answered (or the attempt gave up). */
  at: z.iso.datetime({ offset: true }),
  /** What the message was ("receipt", "offer", "sign-in-link"), never its content. */
  kind: z.string().max(40).optional(),
  /** Why it failed: status code or error class ("HTTP 403", "TypeError (ECONNREFUSED)"). */
  error: z.string().max(300).optional(),
});
export type SendResult = z.output<typeof SendResult>;
