/**
 * What a visitor sees once a lead is in, written once: the dialogs show these after a
 * successful submit, and the functions' no-JS confirmation pages render the very same
 * components (react-dom/server) under their own heading. Copy lives in src/lib/forms/copy.ts.
 */
import { AUDIT_CONFIRMATION as A, BOOKING_CONFIRMATION as B, QUOTE_CONFIRMATION as Q } from "../../lib/forms/copy.ts";
import { SITE } from "../../lib/site.ts";
import { CheckItem } from "./DialogParts.tsx";

/** The estimate range, what happens next and the phone. */
export function QuoteConfirmation({ estimate }: { estimate: string }) {
  return (
    <div className="lead-confirmation">
      <div className="rounded-card border border-amber-200 bg-amber-50 p-5 text-center">
        <p className="text-sm font-semibold tracking-wide text-amber-800 uppercase">{Q.estimateLabel}</p>
        <p className="estimate mt-1 text-3xl font-bold text-forest-950" data-testid="quote-estimate">
          {estimate}
        </p>
        <p className="note mt-2 text-sm text-slate-600">{Q.variesNote}</p>
      </div>
      <ul className="checks mt-5 space-y-2 text-slate-700">
        {Q.promises.map((p) => (
          <CheckItem key={p}>{p}</CheckItem>
        ))}
      </ul>
      <p className="mt-5 text-slate-700">
        {Q.callPrompt}{" "}
        <a href={SITE.phoneHref} className="link whitespace-nowrap">
          {SITE.phone}
        </a>
      </p>
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

/** The audit's and the assessment's next steps and expected outcomes. */
export function GrowthConfirmation() {
  return (
    <div className="lead-confirmation grid gap-4 sm:grid-cols-2">
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

/** Who the booking went to, and the way back to their page (no-JS page; the dialog toasts). */
export function BookingConfirmation({ businessName, slug }: { businessName: string; slug?: string }) {
  return (
    <div className="lead-confirmation">
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
