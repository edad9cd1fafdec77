/**
 * The growth audit and the phase assessment (spec section 4): the same business form
 * (the assessment adds the phase it was opened from), the same confirmation and toasts.
 */
import { useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { closeDialog } from "../../lib/dialogs.ts";
import { AUDIT_CONFIRMATION as C, AUDIT_TOASTS } from "../../lib/forms/copy.ts";
import { ASSESSMENT_FORM, AUDIT_FORM } from "../../lib/forms/fields.ts";
import { AssessmentRequest, AuditRequest } from "../../lib/schemas/forms.ts";
import { showToast } from "../../lib/stores/dialogs.ts";
import { GrowthConfirmation } from "./Confirmations.tsx";
import { DialogHeader } from "./DialogParts.tsx";
import { LeadForm } from "./LeadForm.tsx";
import { createLeadSender, openedAt, type DialogBodyProps } from "./submit.ts";

export function BusinessDialogBody({ kind, dialogId, defaults, hidden, onFinished }: DialogBodyProps & { kind: "audit" | "assessment" }) {
  const [started] = useState(() => Date.now());
  const [send] = useState(createLeadSender);
  const [done, setDone] = useState(false);
  const form = kind === "audit" ? AUDIT_FORM : ASSESSMENT_FORM;

  if (done) {
    return (
      <>
        <DialogHeader dialogId={dialogId} title={C.title} description={AUDIT_TOASTS.success.description} />
        <GrowthConfirmation />
        <button type="button" className="btn-secondary mt-6 w-full" onClick={(e) => closeDialog(e.currentTarget)}>
          Done
        </button>
      </>
    );
  }

  const submit = async (data: Record<string, unknown>) => {
    try {
      await send(form.action, data, { started: openedAt(`${form.name}-form`, started) });
    } catch (error) {
      showToast(AUDIT_TOASTS.failure);
      return error instanceof ApiError && error.status === 400 ? error.fields : undefined;
    }
    setDone(true);
    onFinished();
    showToast(AUDIT_TOASTS.success);
  };

  return (
    <>
      <DialogHeader dialogId={dialogId} title={form.title} description={form.description} />
      {kind === "audit" ? (
        <LeadForm form={AUDIT_FORM} schema={AuditRequest} defaults={defaults} hidden={hidden} onValid={submit} />
      ) : (
        <LeadForm form={ASSESSMENT_FORM} schema={AssessmentRequest} defaults={defaults} hidden={hidden} onValid={submit} />
      )}
    </>
  );
}
