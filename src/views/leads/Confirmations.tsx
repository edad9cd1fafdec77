/**
 * What a visitor sees once a lead is in, written once: the dialogs show these after a
 * successful submit, and the functions' no-JS confirmation pages render the very same
 * components (react-dom/server) under their own heading. Copy lives in src/lib/forms/copy.ts.
 */
import {
  AUDIT_CONFIRMATION as A,
  BOOKING_CONFIRMATION as B,
  QUOTE_CONFIRMATION as Q,
  bookingWith,
  offersNow,
  quotePromises,
} from "../../lib/forms/copy.ts";
import type { Receipt } from "../../lib/receipt.ts";
import type { OfferSummary, ReceivedMatch } from "../../lib/received.ts";
import { SITE } from "../../lib/site.ts";
import { CheckItem } from "./DialogParts.tsx";
import { MatchList } from "./Matches.tsx";
import { EmergencyCall, OffersNow, ReceiptNote } from "./Receipt.tsx";

/**
 * Who has the request now, the receipt, the estimate range, the spec's promises, the pros it
 * went to and our phone. An emergency starts with the danger and our own line (its host's
 * heading has said the 911 line) and is promised neither a day nor an arrival.
 */
export function QuoteConfirmation({
  estimate,
  receipt,
  offers,
  matches = [],
  storm,
}: {
  estimate: string;
  receipt: Receipt;
  offers?: OfferSummary;
  matches?: readonly ReceivedMatch[];
  /** The storm line: the price rule that applies and no storm surcharge (src/lib/storm.ts). */
  storm?: string;
}) {
  const emergency = receipt.urgency === "emergency";
  return (
    <div className="lead-confirmation grid gap-5">
      {emergency ? <EmergencyCall hurt={false} /> : null}
      <OffersNow text={offersNow(offers, receipt.urgency)} />
      <ReceiptNote receipt={receipt} />
      <div className="rounded-card border border-amber-200 bg-amber-50 p-5 text-center">
        <p className="text-sm font-semibold tracking-wide text-amber-800 uppercase">{Q.estimateLabel}</p>
        <p className="estimate mt-1 text-3xl font-bold text-forest-950" data-testid="quote-estimate">
          {estimate}
        </p>
        <p className="note mt-2 text-sm text-slate-600">{Q.variesNote}</p>
        {storm ? (
          <p
            className="mt-3 border-t border-amber-200 pt-3 text-left text-sm text-slate-800"
            data-testid="quote-storm-rule"
          >
            {storm}
          </p>
        ) : null}
      </div>
      <ul className="checks space-y-2 text-slate-700">
        {quotePromises(receipt.urgency).map((p) => (
          <CheckItem key={p}>{p}</CheckItem>
        ))}
      </ul>
      {matches.length > 0 ? (
        <section aria-labelledby="quote-offered-to">
          <h3 id="quote-offered-to" className="mb-3 text-lg font-semibold text-forest-950">
            {offers?.held ? Q.nearYou : offers?.kept ? Q.matchedWith : Q.offeredTo}
          </h3>
          <MatchList matches={matches} />
        </section>
      ) : null}
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
 * Who the booking went to, its receipt, and the way back to their page (the no-JS page; the
 * business page keeps the same receipt on screen, without the way back). An emergency starts
 * with the danger and our own line (its host's heading has said the 911 line).
 */
export function BookingConfirmation({
  businessName,
  slug,
  receipt,
  offers,
}: {
  businessName: string;
  slug?: string;
  receipt: Receipt;
  /** Where it stands (the reply's or the stored lead's offer summary). */
  offers?: OfferSummary;
}) {
  const emergency = receipt.urgency === "emergency";
  const said = bookingWith(offers, receipt.urgency);
  return (
    <div className="lead-confirmation grid gap-4">
      {emergency ? <EmergencyCall hurt={false} /> : null}
      <p data-testid="booking-with">
        {said.before} <strong>{businessName}</strong>
        {said.after}
        {said.next ? ` ${said.next}` : ""}
      </p>
      <ReceiptNote receipt={receipt} />
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
