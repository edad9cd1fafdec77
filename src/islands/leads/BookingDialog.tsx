/**
 * Book Service (spec sections 4 and 5): name, e-mail and phone required; the business's
 * own services as the choices; address, date, urgency (default normal) and description
 * optional. Success closes the dialog (the next opening starts from a fresh form) and
 * toasts; failure keeps the dialog and what was typed, with a destructive toast.
 */
import { useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { bookingForm } from "../../lib/forms/fields.ts";
import { BookingRequest } from "../../lib/schemas/booking.ts";
import { closeDialog, showToast, type BusinessPreset } from "../../lib/stores/dialogs.ts";
import { BOOKING_TOASTS } from "./copy.ts";
import { DialogHeader } from "./DialogShell.tsx";
import { LeadForm } from "./LeadForm.tsx";
import { createLeadSender } from "./submit.ts";

export function BookingDialogBody({ preset }: { preset: BusinessPreset }) {
  const [started] = useState(() => Date.now());
  const [send] = useState(createLeadSender);
  const [form] = useState(() => bookingForm({ name: preset.businessName || "this business", services: preset.services }));

  return (
    <>
      <DialogHeader title={form.title} description={form.description} />
      <LeadForm
        form={form}
        schema={BookingRequest}
        defaults={{ businessId: preset.businessId, urgency: "normal" }}
        onValid={async (data) => {
          const payload = {
            customerName: data.customerName,
            customerEmail: data.customerEmail,
            customerPhone: data.customerPhone,
            serviceType: data.serviceType ?? "",
            propertyAddress: data.propertyAddress ?? "",
            // A date value, or omitted (spec section 3).
            ...(data.preferredDate ? { preferredDate: data.preferredDate } : {}),
            urgency: data.urgency,
            description: data.description ?? "",
            requestType: data.requestType,
            businessId: preset.businessId,
          };
          try {
            await send(form.action, payload, { started });
          } catch (error) {
            showToast(BOOKING_TOASTS.failure);
            return error instanceof ApiError && error.status === 400 ? error.fields : undefined;
          }
          closeDialog();
          showToast(BOOKING_TOASTS.success);
        }}
      />
    </>
  );
}
