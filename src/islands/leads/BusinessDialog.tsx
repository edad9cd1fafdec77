/**
 * The growth audit and the phase assessment (spec section 4): the same business form
 * (the assessment adds the phase it was opened from), the same confirmation and toasts.
 */
import { Dialog } from "radix-ui";
import { useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { ASSESSMENT_FORM, AUDIT_FORM } from "../../lib/forms/fields.ts";
import { AssessmentRequest, AuditRequest } from "../../lib/schemas/forms.ts";
import { showToast } from "../../lib/stores/dialogs.ts";
import { AUDIT_CONFIRMATION as C, AUDIT_TOASTS } from "./copy.ts";
import { CheckItem, DialogHeader } from "./DialogShell.tsx";
import { LeadForm } from "./LeadForm.tsx";
import { createLeadSender } from "./submit.ts";

interface Props {
  kind: "audit" | "assessment";
  /** Phase to preselect (assessment only). */
  phase?: string;
}

export function BusinessDialogBody({ kind, phase }: Props) {
  const [started] = useState(() => Date.now());
  const [send] = useState(createLeadSender);
  const [done, setDone] = useState(false);
  const form = kind === "audit" ? AUDIT_FORM : ASSESSMENT_FORM;

  if (done) {
    return (
      <>
        <DialogHeader title={C.title} description={AUDIT_TOASTS.success.description} />
        <div className="grid gap-4 sm:grid-cols-2">
          <section className="rounded-card border border-forest-100 bg-forest-50 p-5" aria-labelledby="lead-next-steps">
            <h3 id="lead-next-steps" className="text-lg font-semibold">
              {C.nextStepsHeading}
            </h3>
            <ul className="mt-3 space-y-2 text-slate-700">
              {C.nextSteps.map((step) => (
                <CheckItem key={step}>{step}</CheckItem>
              ))}
            </ul>
          </section>
          <section className="rounded-card border border-amber-200 bg-amber-50 p-5" aria-labelledby="lead-outcomes">
            <h3 id="lead-outcomes" className="text-lg font-semibold">
              {C.outcomesHeading}
            </h3>
            <ul className="mt-3 space-y-2 text-slate-700">
              {C.outcomes.map((outcome) => (
                <CheckItem key={outcome}>{outcome}</CheckItem>
              ))}
            </ul>
          </section>
        </div>
        <Dialog.Close className="btn-secondary mt-6 w-full">Done</Dialog.Close>
      </>
    );
  }

  const onFailure = (error: unknown) => {
    showToast(AUDIT_TOASTS.failure);
    return error instanceof ApiError && error.status === 400 ? error.fields : undefined;
  };
  const onSuccess = () => {
    setDone(true);
    showToast(AUDIT_TOASTS.success);
  };

  return (
    <>
      <DialogHeader title={form.title} description={form.description} />
      {kind === "audit" ? (
        <LeadForm
          form={AUDIT_FORM}
          schema={AuditRequest}
          onValid={async (data) => {
            try {
              await send(AUDIT_FORM.action, data, { started });
            } catch (error) {
              return onFailure(error);
            }
            onSuccess();
          }}
        />
      ) : (
        <LeadForm
          form={ASSESSMENT_FORM}
          schema={AssessmentRequest}
          defaults={{ phase }}
          onValid={async (data) => {
            try {
              await send(ASSESSMENT_FORM.action, data, { started });
            } catch (error) {
              return onFailure(error);
            }
            onSuccess();
          }}
        />
      )}
    </>
  );
}
