/**
 * Book Service: name, e-mail and phone required; the business's
 * own services as the choices; address, date, urgency (default normal) and description
 * optional. Success closes the dialog (the next opening starts from a fresh form) and
 * toasts, with the lead's reference and its "Track your request" link, and the same receipt
 * stays on screen until the visitor closes it (ReceiptPanel.tsx); an emergency's toast and
 * receipt lead with the danger. Failure keeps the dialog and what was typed, with a
 * destructive toast.
 */
import { useState } from "react";
import { closeDialog } from "../../lib/dialogs.ts";
import { BOOKING_TOASTS, bookingToast, withReceipt } from "../../lib/forms/copy.ts";
import { bookingForm } from "../../lib/forms/fields.ts";
import { urgencyOf } from "../../lib/lead-urgency.ts";
import { readOffers } from "../../lib/offers.ts";
import { receiptOf } from "../../lib/receipt.ts";
import { $bookingReceipt } from "./ReceiptPanel.tsx";
import { BookingRequest } from "../../lib/schemas/booking.ts";
import type { BusinessPreset } from "../../lib/stores/dialogs.ts";
import { DialogHeader } from "../../views/leads/DialogParts.tsx";
import { LeadForm } from "../../views/leads/LeadForm.tsx";
import { createLeadSender, type DialogBodyProps } from "./submit.ts";

export function BookingDialogBody({
  business,
  dialogId,
  defaults,
  hidden,
  onFinished,
}: DialogBodyProps & { business: BusinessPreset }) {
  const [send] = useState(() =>
    createLeadSender({
      success: (reply, payload) => {
        const receipt = receiptOf(reply, urgencyOf("booking", payload));
        return withReceipt(bookingToast(receipt.urgency), receipt);
      },
      failure: BOOKING_TOASTS.failure,
    }),
  );
  const [form] = useState(() =>
    bookingForm({ name: business.businessName || "this business", services: business.services }),
  );

  return (
    <>
      <DialogHeader dialogId={dialogId} title={form.title} description={form.description} />
      <LeadForm
        form={form}
        schema={BookingRequest}
        defaults={{ urgency: "normal", ...defaults, businessId: business.businessId }}
        hidden={hidden}
        onValid={async (data) => {
          const payload = {
            customerName: data.customerName,
            customerEmail: data.customerEmail,
            customerPhone: data.customerPhone,
            serviceType: data.serviceType ?? "",
            propertyAddress: data.propertyAddress ?? "",
            // A date value, or omitted: the schema has no empty date.
            ...(data.preferredDate ? { preferredDate: data.preferredDate } : {}),
            urgency: data.urgency,
            description: data.description ?? "",
            requestType: data.requestType,
            businessId: business.businessId,
          };
          return send(form, payload, (reply) => {
            closeDialog("booking");
            const receipt = receiptOf(reply, urgencyOf("booking", payload));
            if (receipt.reference)
              $bookingReceipt.set({ businessName: business.businessName, receipt, offers: readOffers(reply) });
            onFinished();
          });
        }}
      />
    </>
  );
}
