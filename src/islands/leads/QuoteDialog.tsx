/**
 * The quote dialog (spec section 4): form -> estimate computed and request sent ->
 * confirmation with the range. A failure keeps the form and what was typed, and says so
 * in a destructive toast; a 400's field messages also show inline.
 */
import { useState } from "react";
import { closeDialog } from "../../lib/dialogs.ts";
import { estimate } from "../../lib/estimate.ts";
import { QUOTE_CONFIRMATION as C, QUOTE_TOASTS } from "../../lib/forms/copy.ts";
import { QUOTE_FORM } from "../../lib/forms/fields.ts";
import { QuoteRequest } from "../../lib/schemas/forms.ts";
import { QuoteConfirmation } from "../../views/leads/Confirmations.tsx";
import { DialogHeader } from "../../views/leads/DialogParts.tsx";
import { LeadForm } from "../../views/leads/LeadForm.tsx";
import { createLeadSender, type DialogBodyProps } from "./submit.ts";

export function QuoteDialogBody({ dialogId, defaults, hidden, onFinished }: DialogBodyProps) {
  const [send] = useState(() => createLeadSender(QUOTE_TOASTS));
  const [done, setDone] = useState<string | null>(null);

  if (done !== null) {
    return (
      <>
        <DialogHeader dialogId={dialogId} title={C.title} description={QUOTE_TOASTS.success.description} />
        <QuoteConfirmation estimate={done} />
        <button type="button" className="btn-secondary mt-6 w-full" onClick={(e) => closeDialog(e.currentTarget)}>
          Done
        </button>
      </>
    );
  }

  return (
    <>
      <DialogHeader dialogId={dialogId} title={QUOTE_FORM.title} description={QUOTE_FORM.description} />
      <LeadForm
        form={QUOTE_FORM}
        schema={QuoteRequest}
        defaults={defaults}
        hidden={hidden}
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
          return send(QUOTE_FORM, payload, () => {
            setDone(estimatedCost);
            onFinished();
          });
        }}
      />
    </>
  );
}
