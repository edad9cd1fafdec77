/**
 * A booking's receipt, kept on screen once its dialog has closed: the spec closes the
 * booking dialog on success and says so in a toast, but a toast leaves after seconds, and
 * the reference and the status link are the visitor's only way back to the request. So the
 * receipt stays in a panel at the foot of the screen (a sheet on phones, a card from sm)
 * until the visitor closes it; a second booking replaces it. Focus moves to it, and goes
 * back where it was on Close.
 */
import { useStore } from "@nanostores/react";
import { atom } from "nanostores";
import { useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { BOOKING_CONFIRMATION as B, DANGER_FIRST } from "../../lib/forms/copy.ts";
import type { Receipt } from "../../lib/receipt.ts";
import type { OfferSummary } from "../../lib/received.ts";
import { Icon } from "../../views/Icon.tsx";
import { BookingConfirmation } from "../../views/leads/Confirmations.tsx";

export interface BookingReceipt {
  businessName: string;
  receipt: Receipt;
  /** Where it stands (the reply's `offers`). */
  offers?: OfferSummary;
}

/** The receipt on screen, if any (one at a time: the latest booking's). */
export const $bookingReceipt = atom<BookingReceipt | null>(null);

export const PANEL_TITLE_ID = "booking-receipt-title";

export function BookingReceiptPanel() {
  const shown = useStore($bookingReceipt);
  const heading = useRef<HTMLHeadingElement>(null);
  const back = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!shown) return;
    // The dialog has closed and handed focus back to its trigger: remember it, then land here.
    if (document.activeElement instanceof HTMLElement && !heading.current?.contains(document.activeElement))
      back.current = document.activeElement;
    heading.current?.focus();
  }, [shown]);

  if (!shown || typeof document === "undefined") return null;
  const close = () => {
    $bookingReceipt.set(null);
    back.current?.focus();
  };
  const emergency = shown.receipt.urgency === "emergency";
  return createPortal(
    <section
      aria-labelledby={PANEL_TITLE_ID}
      data-testid="booking-receipt"
      className="fixed inset-x-0 bottom-0 z-50 max-h-[80dvh] overflow-y-auto rounded-t-2xl border-t border-forest-200 bg-white p-5 shadow-lift sm:inset-x-auto sm:bottom-4 sm:left-4 sm:w-[26rem] sm:rounded-card sm:border"
    >
      <div className="mb-3 flex items-start justify-between gap-3">
        <h2 ref={heading} id={PANEL_TITLE_ID} tabIndex={-1} className="text-xl font-bold text-forest-950 outline-none">
          {B.receiptTitle}
        </h2>
        <button
          type="button"
          onClick={close}
          aria-label={B.close}
          className="-mt-1 -mr-1 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-forest-50"
        >
          <Icon name="close" className="size-5" />
        </button>
      </div>
      {emergency ? <p className="mb-3 text-lg font-bold text-red-900">{DANGER_FIRST.hurt}</p> : null}
      <BookingConfirmation businessName={shown.businessName} receipt={shown.receipt} offers={shown.offers} />
    </section>,
    document.body,
  );
}
