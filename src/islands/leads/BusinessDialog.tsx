/**
 * The growth audit and the phase assessment: the same business form
 * (the assessment adds the phase it was opened from), the same confirmation (with the
 * lead's receipt) and toasts.
 */
import { useState } from "react";
import { closeDialog } from "../../lib/dialogs.ts";
import { AUDIT_CONFIRMATION as C, AUDIT_TOASTS } from "../../lib/forms/copy.ts";
import { ASSESSMENT_FORM, AUDIT_FORM } from "../../lib/forms/fields.ts";
import { receiptOf, type Receipt } from "../../lib/receipt.ts";
import { AssessmentRequest, AuditRequest } from "../../lib/schemas/forms.ts";
import { GrowthConfirmation } from "../../views/leads/Confirmations.tsx";
import { DialogHeader } from "../../views/leads/DialogParts.tsx";
import { LeadForm } from "../../views/leads/LeadForm.tsx";
import { createLeadSender, type DialogBodyProps } from "./submit.ts";

export function BusinessDialogBody({
  kind,
  dialogId,
  defaults,
  hidden,
  onFinished,
}: DialogBodyProps & { kind: "audit" | "assessment" }) {
  const [send] = useState(() => createLeadSender(AUDIT_TOASTS));
  const [done, setDone] = useState<Receipt | null>(null);
  const form = kind === "audit" ? AUDIT_FORM : ASSESSMENT_FORM;

  if (done) {
    return (
      <>
        <DialogHeader dialogId={dialogId} title={C.title} description={AUDIT_TOASTS.success.description} />
        <GrowthConfirmation receipt={done} />
        <button type="button" className="btn-secondary mt-6 w-full" onClick={(e) => closeDialog(e.currentTarget)}>
          Done
        </button>
      </>
    );
  }

  const submit = (data: Record<string, unknown>) =>
    send(form, data, (reply) => {
      // Growth requests are always routine (urgencyOf): the receipt is all the reply adds.
      setDone(receiptOf(reply));
      onFinished();
    });

  return (
    <>
      <DialogHeader dialogId={dialogId} title={form.title} description={form.description} />
      {kind === "audit" ? (
        <LeadForm form={AUDIT_FORM} schema={AuditRequest} defaults={defaults} hidden={hidden} onValid={submit} />
      ) : (
        <LeadForm
          form={ASSESSMENT_FORM}
          schema={AssessmentRequest}
          defaults={defaults}
          hidden={hidden}
          onValid={submit}
        />
      )}
    </>
  );
}
