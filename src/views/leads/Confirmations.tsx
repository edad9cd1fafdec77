/**
 * What a visitor sees once a lead is in, written once: the dialogs show these after a
 * successful submit, and the functions' no-JS confirmation pages render the very same
 * components (react-dom/server) under their own heading. Copy lives in src/lib/forms/copy.ts.
 */
import {
  AUDIT_CONFIRMATION as A,
  BOOKING_CONFIRMATION as B,
  QUOTE_CONFIRMATION as Q,
  quotePromises,
} from "../../lib/forms/copy.ts";
import type { Receipt } from "../../lib/receipt.ts";
import { SITE } from "../../lib/site.ts";
import { CheckItem } from "./DialogParts.tsx";
import { EmergencyCall, ReceiptNote } from "./Receipt.tsx";

/**
 * The receipt, the estimate range, what happens next and the phone. An emergency starts
 * with the hotline and is promised the emergency page's figures, never a day.
 */
export function QuoteConfirmation({ estimate, receipt }: { estimate: string; receipt: Receipt }) {
  const emergency = receipt.urgency === "emergency";
  return (
    <div className="lead-confirmation grid gap-5">
      {emergency ? <EmergencyCall /> : null}
      <ReceiptNote receipt={receipt} />
      <div className="rounded-card border border-amber-200 bg-amber-50 p-5 text-center">
        <p className="text-sm font-semibold tracking-wide text-amber-800 uppercase">{Q.estimateLabel}</p>
        <p className="estimate mt-1 text-3xl font-bold text-forest-950" data-testid="quote-estimate">
          {estimate}
        </p>
        <p className="note mt-2 text-sm text-slate-600">{Q.variesNote}</p>
      </div>
      <ul className="checks space-y-2 text-slate-700">
        {quotePromises(receipt.urgency).map((p) => (
          <CheckItem key={p}>{p}</CheckItem>
        ))}
      </ul>
      {emergency ? null : (
        <p className="text-slate-700">
          {Q.callPrompt}{" "}
          <a href={SITE.phoneHref} className="link whitespace-nowrap">
            {SITE.phone}
          </a>
        </p>
      )}
    </div>
  );
}

function CheckSection({
  id,
  heading,
  items,
  tone,
}: {
  id: string;
  heading: string;
  items: readonly string[];
  tone: string;
}) {
  return (
    <section className={`rounded-card border p-5 ${tone}`} aria-labelledby={id}>
      <h3 id={id} className="text-lg font-semibold">
        {heading}
      </h3>
      <ul className="checks mt-3 space-y-2 text-slate-700">
        {items.map((item) => (
          <CheckItem key={item}>{item}</CheckItem>
        ))}
      </ul>
    </section>
  );
}

/** The receipt, then the audit's and the assessment's next steps and expected outcomes (always routine). */
export function GrowthConfirmation({ receipt }: { receipt: Pick<Receipt, "reference" | "statusUrl"> }) {
  return (
    <div className="lead-confirmation grid gap-4 sm:grid-cols-2">
      {receipt.reference ? (
        <div className="sm:col-span-2">
          <ReceiptNote receipt={receipt} />
        </div>
      ) : null}
      <CheckSection
        id="lead-next-steps"
        heading={A.nextStepsHeading}
        items={A.nextSteps}
        tone="border-forest-100 bg-forest-50"
      />
      <CheckSection
        id="lead-outcomes"
        heading={A.outcomesHeading}
        items={A.outcomes}
        tone="border-amber-200 bg-amber-50"
      />
    </div>
  );
}

/**
 * Who the booking went to, its receipt, and the way back to their page (no-JS page; the
 * dialog toasts). An emergency starts with the hotline.
 */
export function BookingConfirmation({
  businessName,
  slug,
  receipt,
}: {
  businessName: string;
  slug?: string;
  receipt: Receipt;
}) {
  return (
    <div className="lead-confirmation grid gap-4">
      {receipt.urgency === "emergency" ? <EmergencyCall /> : null}
      <ReceiptNote receipt={receipt} />
      <p>
        {B.sentTo} <strong>{businessName}</strong>.
      </p>
      {slug ? (
        <p>
          <a href={`/directory/${encodeURIComponent(slug)}`}>
            {B.backTo} {businessName}
          </a>
        </p>
      ) : null}
    </div>
  );
}
