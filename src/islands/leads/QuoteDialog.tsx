/**
 * The quote dialog (spec section 4): form -> estimate computed and request sent ->
 * confirmation with the range. A failure keeps the form and what was typed, and says so
 * in a destructive toast; a 400's field messages also show inline.
 */
import { Dialog } from "radix-ui";
import { useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { estimate } from "../../lib/estimate.ts";
import { QUOTE_FORM } from "../../lib/forms/fields.ts";
import { QuoteRequest } from "../../lib/schemas/forms.ts";
import { SITE } from "../../lib/site.ts";
import { showToast, type QuotePreset } from "../../lib/stores/dialogs.ts";
import { QUOTE_CONFIRMATION as C, QUOTE_TOASTS } from "./copy.ts";
import { CheckItem, DialogHeader } from "./DialogShell.tsx";
import { LeadForm } from "./LeadForm.tsx";
import { createLeadSender } from "./submit.ts";

export function QuoteDialogBody({ preset }: { preset: QuotePreset }) {
  const [started] = useState(() => Date.now());
  const [send] = useState(createLeadSender);
  const [done, setDone] = useState<string | null>(null);

  if (done !== null) {
    return (
      <>
        <DialogHeader title={C.title} description={QUOTE_TOASTS.success.description} />
        <div className="rounded-card border border-amber-200 bg-amber-50 p-5 text-center">
          <p className="text-sm font-semibold tracking-wide text-amber-800 uppercase">{C.estimateLabel}</p>
          <p className="mt-1 text-3xl font-bold text-forest-950" data-testid="quote-estimate">
            {done}
          </p>
          <p className="mt-2 text-sm text-slate-600">{C.variesNote}</p>
        </div>
        <ul className="mt-5 space-y-2 text-slate-700">
          {C.promises.map((p) => (
            <CheckItem key={p}>{p}</CheckItem>
          ))}
        </ul>
        <p className="mt-5 text-slate-700">
          {C.callPrompt}{" "}
          <a href={SITE.phoneHref} className="link whitespace-nowrap">
            {SITE.phone}
          </a>
        </p>
        <Dialog.Close className="btn-secondary mt-6 w-full">Done</Dialog.Close>
      </>
    );
  }

  return (
    <>
      <DialogHeader title={QUOTE_FORM.title} description={QUOTE_FORM.description} />
      <LeadForm
        form={QUOTE_FORM}
        schema={QuoteRequest}
        defaults={{ serviceType: preset.serviceType, urgency: preset.urgency }}
        onValid={async (data) => {
          const estimatedCost = estimate(data.serviceType, data.urgency).text;
          const payload = {
            name: data.name,
            email: data.email,
            phone: data.phone,
            address: data.address,
            serviceType: data.serviceType,
            urgency: data.urgency,
            // The spec's payload always names treeDetails; an empty object means "none given".
            treeDetails: data.treeDetails ?? {},
            estimatedCost,
          };
          try {
            await send(QUOTE_FORM.action, payload, { started });
          } catch (error) {
            showToast(QUOTE_TOASTS.failure);
            return error instanceof ApiError && error.status === 400 ? error.fields : undefined;
          }
          setDone(estimatedCost);
          showToast(QUOTE_TOASTS.success);
        }}
      />
    </>
  );
}
