/**
 * The parts every lead confirmation shares, in the dialogs, the find-pros island and the
 * functions' no-JS pages alike: the receipt (reference and status link), what is happening
 * to the request now and, for an emergency, the danger and our own line before anything
 * else. Copy lives in src/lib/forms/copy.ts.
 */
import { EMERGENCY_CONFIRMATION as E, HOTLINE, RECEIPT_COPY as R } from "../../lib/forms/copy.ts";
import type { Receipt } from "../../lib/receipt.ts";
import { SITE } from "../../lib/site.ts";

/** "Your reference: TL-7KQ2-9F", the status link and the e-mail note; nothing without a reference. */
export function ReceiptNote({ receipt }: { receipt: Pick<Receipt, "reference" | "statusUrl" | "willEmail"> }) {
  if (!receipt.reference) return null;
  return (
    <div className="receipt rounded-card border border-forest-200 bg-forest-50 p-4" data-testid="lead-receipt">
      <p className="text-slate-700">
        {R.referenceLabel}{" "}
        <strong className="reference font-mono text-lg tracking-wide text-forest-950">{receipt.reference}</strong>
      </p>
      {receipt.statusUrl ? (
        <>
          <p className="mt-1">
            <a href={receipt.statusUrl} className="link font-semibold">
              {R.track}
            </a>
          </p>
          <p className="note mt-1 text-sm text-slate-600">{receipt.willEmail ? R.willEmail : R.keep}</p>
        </>
      ) : null}
    </div>
  );
}

/**
 * An emergency's first words: 911 if anyone is hurt or in danger, the power lines, then our
 * own line, named as ours. `hurt={false}` where the heading above has said the 911 line.
 */
export function EmergencyCall({ hurt = true }: { hurt?: boolean }) {
  return (
    <div className="emergency-call rounded-card border border-red-200 bg-red-50 p-5" data-testid="emergency-call">
      {hurt ? <p className="text-lg font-bold text-red-900">{E.heading}</p> : null}
      <p className={hurt ? "mt-2 text-slate-800" : "font-semibold text-red-900"}>{E.lines}</p>
      <a href={SITE.phoneHref} className="btn-primary mt-3 w-full flex-wrap text-center">
        {HOTLINE.label}: <span className="whitespace-nowrap">{SITE.phone}</span>
      </a>
    </div>
  );
}

/** What is happening to the request now (copy.ts offersNow), when the reply said. */
export function OffersNow({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <p className="offers-now font-semibold text-forest-950" data-testid="offers-now">
      {text}
    </p>
  );
}
