/**
 * The quote dialog: form -> estimate computed and request sent ->
 * confirmation with who has the request now, the receipt and the range, until the visitor
 * closes it; an emergency (its urgency or its service) is told the danger first and our own
 * line, never promised a day. A failure keeps the form and what was typed, and says so in a
 * destructive toast; a 400's field messages also show inline.
 */
import { useState } from "react";
import { closeDialog } from "../../lib/dialogs.ts";
import { estimate } from "../../lib/estimate.ts";
import { QUOTE_CONFIRMATION as C, QUOTE_TOASTS, quoteToast } from "../../lib/forms/copy.ts";
import { QUOTE_FORM } from "../../lib/forms/fields.ts";
import { urgencyOf } from "../../lib/lead-urgency.ts";
import { readMatches, readOffers, readStormLine } from "../../lib/offers.ts";
import { receiptOf, type Receipt } from "../../lib/receipt.ts";
import type { OfferSummary, ReceivedMatch } from "../../lib/received.ts";
import { QuoteRequest } from "../../lib/schemas/forms.ts";
import { QuoteConfirmation } from "../../views/leads/Confirmations.tsx";
import { DialogHeader } from "../../views/leads/DialogParts.tsx";
import { LeadForm } from "../../views/leads/LeadForm.tsx";
import { createLeadSender, type DialogBodyProps } from "./submit.ts";

export function QuoteDialogBody({ dialogId, defaults, hidden, onFinished }: DialogBodyProps) {
  const [send] = useState(() =>
    createLeadSender({
      success: (reply, payload) => quoteToast(receiptOf(reply, urgencyOf("quote", payload)).urgency),
      failure: QUOTE_TOASTS.failure,
    }),
  );
  const [done, setDone] = useState<{
    estimate: string;
    receipt: Receipt;
    offers?: OfferSummary;
    matches: ReceivedMatch[];
    storm?: string;
  } | null>(null);

  if (done !== null) {
    const emergency = done.receipt.urgency === "emergency";
    return (
      <>
        <DialogHeader
          dialogId={dialogId}
          title={C.title}
          description={quoteToast(done.receipt.urgency).description}
          danger={emergency}
        />
        <QuoteConfirmation
          estimate={done.estimate}
          receipt={done.receipt}
          offers={done.offers}
          matches={done.matches}
          storm={done.storm}
        />
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
          return send(QUOTE_FORM, payload, (reply) => {
            setDone({
              estimate: estimatedCost,
              receipt: receiptOf(reply, urgencyOf("quote", payload)),
              offers: readOffers(reply),
              matches: readMatches(reply),
              storm: readStormLine(reply),
            });
            onFinished();
          });
        }}
      />
    </>
  );
}
