/**
 * Which site dialog is open (and with what preselection) and the toast queue. Every
 * island imports these atoms and actions rather than owning its own copy, so a chat
 * reply or a directory card can open the quote dialog or raise a toast in the one
 * place the visitor already knows (spec section 4: one notification at a time).
 */
import { atom } from "nanostores";

export type DialogName = "quote" | "audit" | "assessment" | "booking" | "review";

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

/** Which directory business a booking or review dialog is about (from its trigger). */
export interface BusinessPreset {
  businessId: string;
  businessName: string;
  businessSlug: string;
  /** The business's services: the booking and review forms offer only these. */
  services: string[];
}

export type OpenDialog = (
  | { name: "quote"; preset: QuotePreset }
  | { name: "audit"; preset: Record<string, never> }
  | { name: "assessment"; preset: AssessmentPreset }
  | { name: "booking"; preset: BusinessPreset }
  | { name: "review"; preset: BusinessPreset }
) & {
  /** Increases with every opening, so a reopened dialog starts from a fresh form. */
  seq: number;
};

/** The open dialog, or null when none is. */
export const $dialog = atom<OpenDialog | null>(null);

let seq = 0;

export function openQuote(preset: QuotePreset = {}): void {
  $dialog.set({ name: "quote", preset: { ...preset }, seq: ++seq });
}

export function openAudit(): void {
  $dialog.set({ name: "audit", preset: {}, seq: ++seq });
}

export function openAssessment(preset: AssessmentPreset = {}): void {
  $dialog.set({ name: "assessment", preset: { ...preset }, seq: ++seq });
}

export function openBusinessDialog(name: "booking" | "review", preset: BusinessPreset): void {
  $dialog.set({ name, preset: { ...preset, services: [...preset.services] }, seq: ++seq });
}

export function closeDialog(): void {
  $dialog.set(null);
}

/**
 * Opens a dialog from a trigger's data-* attributes (`data-dialog`, `data-service-type`,
 * `data-urgency`, `data-phase`, and for the directory dialogs `data-business-*` and `data-services`). Shared by the delegated click listener and the queue of
 * clicks made before the island loaded, so both read triggers the same way.
 */
export function openFromDataset(data: Partial<Record<string, string>>): boolean {
  const clean = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);
  switch (data.dialog) {
    case "quote":
      openQuote({ serviceType: clean(data.serviceType), urgency: clean(data.urgency) });
      return true;
    case "audit":
      openAudit();
      return true;
    case "assessment":
      openAssessment({ phase: clean(data.phase) });
      return true;
    case "booking":
    case "review": {
      const businessId = clean(data.businessId);
      if (!businessId) return false;
      openBusinessDialog(data.dialog, {
        businessId,
        businessName: clean(data.businessName) ?? "",
        businessSlug: clean(data.businessSlug) ?? "",
        services: (data.services ?? "").split("\n").map((s) => s.trim()).filter(Boolean),
      });
      return true;
    }
    default:
      return false;
  }
}

export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends Required<Omit<ToastInput, "description">> {
  description?: string;
  /** Stable key so React keeps one Radix Toast per notification. */
  id: number;
}

/**
 * At most one notification is visible (spec section 4). A new toast replaces the one on
 * screen instead of waiting behind it: the latest outcome (say, the error after a retry)
 * is the one the visitor needs to read now.
 */
export const TOAST_LIMIT = 1;

/** Toasts on screen, newest first (never longer than TOAST_LIMIT). */
export const $toasts = atom<readonly ToastItem[]>([]);

let nextToastId = 1;

/** Shows a notification; returns its id (for dismissToast). */
export function showToast({ title, description, variant = "default" }: ToastInput): number {
  const id = nextToastId++;
  $toasts.set([{ id, title, description, variant }, ...$toasts.get()].slice(0, TOAST_LIMIT));
  return id;
}

/** Removes a toast (after it timed out, was swiped or closed). */
export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
