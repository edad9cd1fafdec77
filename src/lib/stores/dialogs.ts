/**
 * The lead dialogs' preselection types and the site's toast queue. The dialogs themselves
 * are native `<dialog>` elements in the page (see ../dialogs.ts), opened by their triggers.
 * Every island imports the toast atom and actions rather than owning its own copy, so a
 * chat reply or a directory card raises a toast in the one place the visitor already
 * knows (one notification at a time).
 */
import { atom } from "nanostores";
import type { DialogName } from "../dialogs.ts";

export type { DialogName };

export interface QuotePreset {
  /** A SERVICE_TYPES value to preselect. */
  serviceType?: string;
  /** An URGENCY value to preselect. */
  urgency?: string;
}

export interface AssessmentPreset {
  /** A GROWTH_PHASES value ("phase-3"), shown and sent with the assessment. */
  phase?: string;
}

/** Which directory business a booking or review dialog is about. */
export interface BusinessPreset {
  businessId: string;
  businessName: string;
  businessSlug: string;
  /** The business's services: the booking and review forms offer only these. */
  services: string[];
}

export type ToastVariant = "default" | "destructive";

/** A toast's link (Radix Toast's Action, rendered as a real link). */
export interface ToastAction {
  label: string;
  /** A site path. */
  href: string;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** A lead's reference (src/lib/receipt.ts), shown in bold after the description. */
  reference?: string;
  action?: ToastAction;
  /** Milliseconds on screen, when the default 5000 is too short to read (a reference). */
  duration?: number;
  /** Offer the hotline as a tap-to-call button (an emergency's confirmation). */
  call?: boolean;
}

export interface ToastItem extends ToastInput {
  variant: ToastVariant;
  /** Stable key so React keeps one Radix Toast per notification. */
  id: number;
}

/**
 * At most one notification is visible. A new toast replaces the one on
 * screen instead of waiting behind it: the latest outcome (say, the error after a retry)
 * is the one the visitor needs to read now.
 */
export const TOAST_LIMIT = 1;

/** Toasts on screen, newest first (never longer than TOAST_LIMIT). */
export const $toasts = atom<readonly ToastItem[]>([]);

let nextToastId = 1;

/** Shows a notification; returns its id (for dismissToast). */
export function showToast({ variant = "default", ...toast }: ToastInput): number {
  const id = nextToastId++;
  $toasts.set([{ ...toast, id, variant }, ...$toasts.get()].slice(0, TOAST_LIMIT));
  return id;
}

/** Removes a toast (after it timed out, was swiped or closed). */
export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
