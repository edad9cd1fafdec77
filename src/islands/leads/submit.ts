/**
 * Posting a lead from a dialog. An Idempotency-Key travels with each request; retries of
 * the same payload (the visitor pressing submit again after a network error) reuse the
 * key so the lead is stored once, while a changed payload is a new attempt with a new key.
 */
import { apiRequest } from "../../lib/api.ts";
import type { FormValues } from "../../lib/forms/markup.ts";
import { SOURCE_FIELD, STARTED_FIELD } from "../../lib/forms/markup.ts";
import type { LeadFormProps } from "./LeadForm.tsx";

/** What the dialogs island hands each dialog's body. */
export interface DialogBodyProps {
  /** The `<dialog>` element's id; the body names it through `{dialogId}-title`. */
  dialogId: string;
  /** Initial form values: the page's preselection, or what was typed before hydration. */
  defaults: Partial<FormValues>;
  /** The pipeline's hidden inputs (`_source`; `_started` and the key once opened). */
  hidden: NonNullable<LeadFormProps<never>["hidden"]>;
  /** Called once the lead is in: the next opening starts from a fresh form. */
  onFinished: () => void;
}

export interface LeadMeta {
  /** ms epoch at which the dialog opened (the function drops inhumanly fast submits). */
  started: number;
}

/**
 * When the visitor started: the `_started` the opener stamped on the form when the dialog
 * opened (before this island existed), else `fallback` (the island's mount).
 */
export function openedAt(formId: string, fallback: number): number {
  const input = document.getElementById(formId)?.querySelector<HTMLInputElement>(`input[name="${STARTED_FIELD}"]`);
  const value = Number(input?.value);
  return Number.isFinite(value) && value > 0 ? Math.min(value, fallback) : fallback;
}

export function createLeadSender() {
  let lastBody = "";
  let key = "";
  return async function send(url: string, payload: Record<string, unknown>, meta: LeadMeta): Promise<void> {
    const body = { ...payload, [STARTED_FIELD]: String(meta.started), [SOURCE_FIELD]: location.pathname };
    const serialized = JSON.stringify(body);
    if (serialized !== lastBody || !key) {
      key = crypto.randomUUID();
      lastBody = serialized;
    }
    await apiRequest("POST", url, body, { headers: { "Idempotency-Key": key } });
  };
}
