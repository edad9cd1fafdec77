/**
 * The inside of one lead dialog (quote, audit, assessment, and on business pages booking
 * and review). The `<dialog>` around it is static markup (src/components/LeadDialog.astro)
 * that the browser opens by itself (Invoker Commands); this island's server-rendered HTML
 * is the working no-JS form, and it hydrates on intent (Island.astro), i.e. on the first
 * pointer or focus on one of its triggers, or when its dialog opens. From then on it adds
 * what needs script: validation messages, JSON posts with an Idempotency-Key, the pending
 * label, the confirmation view (a booking's receipt panel) and the toasts.
 *
 * Whatever the visitor typed or chose before hydration is read back from the DOM on the
 * first client render, so React starts from those values, not the server's defaults.
 */
import { useEffect, useState } from "react";
import { dialogId as idOf, takeOverForm, type DialogName } from "../lib/dialogs.ts";
import { ASSESSMENT_FORM, AUDIT_FORM, QUOTE_FORM, bookingForm, type FormDef } from "../lib/forms/fields.ts";
import { SOURCE_FIELD, entriesToFormValues, type FormValues } from "../lib/forms/markup.ts";
import type { BusinessPreset } from "../lib/stores/dialogs.ts";
import { BookingDialogBody } from "./leads/BookingDialog.tsx";
import { BusinessDialogBody } from "./leads/BusinessDialog.tsx";
import { QuoteDialogBody } from "./leads/QuoteDialog.tsx";
import { REVIEW_FORM_ID, ReviewDialogBody } from "./leads/ReviewDialog.tsx";
import { BookingReceiptPanel } from "./leads/ReceiptPanel.tsx";
import { ensureToaster } from "./leads/Toaster.tsx";

interface Props {
  kind: DialogName;
  /** The page's preselection by field name (a service page's service, a phase page's phase). */
  preset?: Record<string, string>;
  /** Booking and review: the business the page is about. */
  business?: BusinessPreset;
  /** Page path, sent as `_source` so the lead records where it came from. */
  source: string;
}

function formFor(kind: DialogName, business?: BusinessPreset): FormDef | null {
  if (kind === "quote") return QUOTE_FORM;
  if (kind === "audit") return AUDIT_FORM;
  if (kind === "assessment") return ASSESSMENT_FORM;
  if (kind === "booking")
    return bookingForm({ name: business?.businessName ?? "", services: business?.services ?? [] });
  return null;
}

/** What the visitor already put in the prerendered form (null on the server). */
function typedValues(kind: DialogName, business?: BusinessPreset): Partial<FormValues> | null {
  if (typeof document === "undefined") return null;
  const def = formFor(kind, business);
  const form = document.getElementById(def ? `${def.name}-form` : REVIEW_FORM_ID);
  if (!(form instanceof HTMLFormElement)) return null;
  const entries = [...new FormData(form)];
  if (def) return entriesToFormValues(def, entries);
  return Object.fromEntries(entries.filter((e): e is [string, string] => typeof e[1] === "string"));
}

export default function LeadDialog({ kind, preset = {}, business, source }: Props) {
  const dialogId = idOf(kind);
  const [typed] = useState(() => typedValues(kind, business));
  /** Bumped when a finished dialog closes, so the next opening starts from a fresh form. */
  const [round, setRound] = useState(0);
  const [finished, setFinished] = useState(false);
  const defaults = round === 0 && typed ? typed : preset;

  useEffect(() => {
    ensureToaster();
    // Each round renders a fresh form; a submit the page held for this island (the review's) goes now, through its handler.
    const form = document.getElementById(kind === "review" ? REVIEW_FORM_ID : `${formFor(kind, business)?.name}-form`);
    if (form instanceof HTMLFormElement && takeOverForm(form)) form.requestSubmit();
  }, [kind, business, round]);

  useEffect(() => {
    if (!finished) return;
    const dialog = document.getElementById(dialogId);
    const reset = () => {
      setFinished(false);
      setRound((r) => r + 1);
    };
    dialog?.addEventListener("close", reset, { once: true });
    return () => dialog?.removeEventListener("close", reset);
  }, [finished, dialogId]);

  const onFinished = () => {
    // A dialog that closed itself on success (booking) starts over now; one showing its
    // confirmation starts over once the visitor closes it.
    if ((document.getElementById(dialogId) as HTMLDialogElement | null)?.open) setFinished(true);
    else setRound((r) => r + 1);
  };
  const common = { dialogId, defaults, hidden: { [SOURCE_FIELD]: source }, onFinished };
  const key = `${kind}-${round}`;
  switch (kind) {
    case "quote":
      return <QuoteDialogBody key={key} {...common} />;
    case "audit":
    case "assessment":
      return <BusinessDialogBody key={key} kind={kind} {...common} />;
    case "booking":
      // The receipt panel lives outside the body, so a fresh form does not take it away.
      return business ? (
        <>
          <BookingDialogBody key={key} business={business} {...common} />
          <BookingReceiptPanel />
        </>
      ) : null;
    case "review":
      return business ? (
        <ReviewDialogBody key={key} preset={business} dialogId={dialogId} defaults={defaults} onFinished={onFinished} />
      ) : null;
  }
}
