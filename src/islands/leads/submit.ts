/**
 * Posting a lead from a dialog. An Idempotency-Key travels with each request; retries of
 * the same payload (the visitor pressing submit again after a network error) reuse the
 * key so the lead is stored once, while a changed payload is a new attempt with a new key.
 */
import { ApiError, apiRequest } from "../../lib/api.ts";
import type { FormDef } from "../../lib/forms/fields.ts";
import type { FormValues } from "../../lib/forms/markup.ts";
import { SOURCE_FIELD, STARTED_FIELD } from "../../lib/forms/markup.ts";
import type { FieldErrors } from "../../lib/schemas/forms.ts";
import { showToast, type ToastInput } from "../../lib/stores/dialogs.ts";
import type { LeadFormProps } from "../../views/leads/LeadForm.tsx";

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

/**
 * When the visitor started, for the pipeline's too-fast check: when the page was shown. A
 * stamp taken later (the dialog's opening, or this island's mount, which waits for the first
 * touch and the network) made a person who filled the form in a few seconds on a slow phone
 * look like a script, and the lead was silently dropped.
 */
const pageShownAt = () => Math.round(performance.timeOrigin || Date.now());

/** A successful lead POST's JSON body (`{}` when it cannot be read): the receipt fields and the endpoint's own. */
export type LeadReply = Record<string, unknown>;

/** The success toast, fixed or chosen from the reply and what was sent (the urgency, the receipt). */
type SuccessToast = ToastInput | ((reply: LeadReply, payload: Record<string, unknown>) => ToastInput);

/**
 * One dialog body's sender (create it once, at mount). A call posts the lead, then says
 * how it went in a toast: on success `done(reply)` runs first (the dialog's next view); a
 * failure resolves to the 400 answer's field messages, which the form shows inline.
 */
export function createLeadSender(toasts: { success: SuccessToast; failure: ToastInput }) {
  let lastBody = "";
  let key = "";
  return async function send(
    form: Pick<FormDef, "action" | "name">,
    payload: Record<string, unknown>,
    done: (reply: LeadReply) => void,
  ): Promise<FieldErrors | undefined> {
    const started = pageShownAt();
    const body = { ...payload, [STARTED_FIELD]: String(started), [SOURCE_FIELD]: location.pathname };
    const serialized = JSON.stringify(body);
    if (serialized !== lastBody || !key) {
      key = crypto.randomUUID();
      lastBody = serialized;
    }
    let res: Response;
    try {
      res = await apiRequest("POST", form.action, body, { headers: { "Idempotency-Key": key } });
    } catch (error) {
      showToast(toasts.failure);
      return error instanceof ApiError && error.status === 400 ? error.fields : undefined;
    }
    // The lead is stored once the answer is OK: an unreadable body still confirms, without a receipt.
    const parsed: unknown = await res.json().catch(() => undefined);
    const reply: LeadReply = parsed && typeof parsed === "object" ? (parsed as LeadReply) : {};
    done(reply);
    showToast(typeof toasts.success === "function" ? toasts.success(reply, payload) : toasts.success);
    return undefined;
  };
}
