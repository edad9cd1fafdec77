/**
 * The words of lead delivery that the answer page, the e-mails and /admin all show: why a
 * business declines or gives back a job it accepted, and why a lead moved on. One list, so
 * the operator reads what the business chose. Client-safe.
 */
import type { Option } from "./options.ts";

/** The reasons the answer page offers for declining, in display order. */
export const DECLINE_REASONS = [
  { value: "too-busy", label: "Fully booked right now" },
  { value: "too-far", label: "Outside my service area" },
  { value: "not-my-service", label: "We don't do this kind of job" },
  { value: "other", label: "Another reason" },
] as const satisfies readonly Option[];
export type DeclineReason = (typeof DECLINE_REASONS)[number]["value"];

/** The reasons the answer page offers for giving back a job already accepted, in display order. */
export const WITHDRAW_REASONS = [
  { value: "cant-make-it", label: "Can't make it after all" },
  { value: "customer-unreachable", label: "Customer unreachable" },
  { value: "not-as-described", label: "Job isn't what was described" },
  { value: "other", label: "Another reason" },
] as const satisfies readonly Option[];
export type WithdrawReason = (typeof WITHDRAW_REASONS)[number]["value"];

/**
 * What a business can report about a lead from its answer page (a bad lead: it goes to the
 * operator and never counts in the business's response figures), in display order.
 */
export const REPORT_REASONS = [
  { value: "wrong-area", label: "Wrong area" },
  { value: "wrong-job", label: "Not our kind of job" },
  { value: "bad-contact", label: "Bad contact details" },
  { value: "duplicate", label: "Duplicate" },
  { value: "spam", label: "Spam" },
] as const satisfies readonly Option[];
export type ReportReason = (typeof REPORT_REASONS)[number]["value"];

/** A report reason's label ("Spam"), or the value itself for one no longer offered. */
export const reportReasonLabel = (value: string): string =>
  REPORT_REASONS.find((r) => r.value === value)?.label ?? value;

/**
 * Why a new lead went to the operator without an offer: the job's place is not one we know
 * (no ZIP or "City, ST" the dataset has), or no listed pro near it offers the service (for an
 * emergency: none answering 24/7 or open now).
 */
export const NO_MATCH_REASONS = ["no-place", "no-pros"] as const;
export type NoMatchReason = (typeof NO_MATCH_REASONS)[number];

/** Why a lead went to the operator, or why one more pro was offered it (routing events' `reason`). */
export const ROUTING_REASON_LABELS: Readonly<Record<string, string>> = {
  "no-answer": "no pro accepted in time",
  "all-declined": "every pro declined",
  "none-reached": "none of the pros could be reached (no channel took our offers)",
  "no-pros": "no listed pro near the job offers that service (for an emergency: none works 24/7 or is open now)",
  "no-place": "the address names no ZIP code or city we know",
  unreachable: "the business has no e-mail or phone on file",
  undeliverable: "our offer could not be delivered to the business",
  withdrawn: "the pro who accepted withdrew",
  // A withdrawal's event carries the business's reason; /admin's timeline reads it here too.
  ...Object.fromEntries(WITHDRAW_REASONS.map((r) => [r.value, r.label])),
  "no-channel": "no channel set up here reaches the business (e.g. only a phone on file, and SMS is not set up)",
  "next-pro": "next pro",
  operator: "offered by the operator",
  reported: "a pro reported the lead as a bad lead",
  // A report's event carries the business's reason; the operator's alert and /admin read it here.
  ...Object.fromEntries(REPORT_REASONS.map((r) => [r.value, `reported the lead: ${r.label.toLowerCase()}`])),
  "too-fast": "held: sent faster than a person types, so nothing went out; check it and call the customer",
};
