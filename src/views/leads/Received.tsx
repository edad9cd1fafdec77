/**
 * The page a lead form's no-JS post leads to once the lead is stored: the dialog's
 * confirmation (Confirmations.tsx) under the toast's heading and words, and for find-pros the
 * businesses it went to. Rendered by src/pages/requests/[leadId]/[sig]/received.astro.
 */
import { StormNotice } from "../storm/StormNotice.tsx";
import {
  ASSESSMENT_SUBMITTED,
  AUDIT_TOASTS,
  bookingToast,
  findProsFollowUp,
  HOTLINE,
  noMatchesMessage,
  offersNow,
  quoteToast,
} from "../../lib/forms/copy.ts";
import type { Receipt } from "../../lib/receipt.ts";
import type { ReceivedLead, ReceivedMatch } from "../../lib/received.ts";
import { SITE } from "../../lib/site.ts";
import { BookingConfirmation, GrowthConfirmation, QuoteConfirmation } from "./Confirmations.tsx";
import { MatchList } from "./Matches.tsx";
import { EmergencyCall, OffersNow, ReceiptNote } from "./Receipt.tsx";

/** The page's heading (also its title). */
export function receivedTitle(lead: ReceivedLead, receipt: Receipt): string {
  switch (lead.kind) {
    case "quote":
      return quoteToast(receipt.urgency).title;
    case "audit":
      return AUDIT_TOASTS.success.title;
    case "assessment":
      return ASSESSMENT_SUBMITTED;
    case "booking":
      return bookingToast(receipt.urgency).title;
    case "find-pros":
      return "Request Received";
  }
}

/** The toast's words under the heading; an emergency's are the 911 line, in the danger's colors. */
const Lead = ({ children, danger = false }: { children: string; danger?: boolean }) => (
  <p className={danger ? "mt-2 text-lg font-bold text-red-900" : "mt-2 text-lg text-slate-700"}>{children}</p>
);

const CallUs = () => (
  <p className="mt-5">
    <a href={SITE.phoneHref} className="btn-primary">
      {HOTLINE.text}
    </a>
  </p>
);

function Matches({ matches, receipt }: { matches: readonly ReceivedMatch[]; receipt: Receipt }) {
  if (matches.length === 0) return <p className="mt-2 text-slate-700">{noMatchesMessage(receipt.urgency)}</p>;
  const followUp = findProsFollowUp(receipt.urgency);
  return (
    <>
      <p className="mt-2 mb-3 text-slate-700">These local pros offer the service you asked for:</p>
      <MatchList matches={matches} />
      {followUp ? <p className="mt-3 text-slate-700">{followUp}</p> : null}
    </>
  );
}

/** The heading, the toast's words and the form's confirmation. */
export function Received({ lead, receipt }: { lead: ReceivedLead; receipt: Receipt }) {
  const title = receivedTitle(lead, receipt);
  const heading = <h1 className="text-3xl font-bold text-forest-950 sm:text-4xl">{title}</h1>;
  switch (lead.kind) {
    case "quote": {
      return (
        <>
          {heading}
          <Lead danger={receipt.urgency === "emergency"}>{quoteToast(receipt.urgency).description}</Lead>
          <div className="mt-6">
            <QuoteConfirmation
              estimate={lead.estimate}
              receipt={receipt}
              offers={lead.offers}
              matches={lead.matches}
              storm={lead.storm}
            />
          </div>
        </>
      );
    }
    case "audit":
    case "assessment":
      return (
        <>
          {heading}
          <Lead>{AUDIT_TOASTS.success.description}</Lead>
          <div className="mt-6">
            <GrowthConfirmation receipt={receipt} />
          </div>
          <p className="mt-6 text-slate-700">Prefer to talk now?</p>
          <CallUs />
        </>
      );
    case "booking":
      return (
        <>
          {heading}
          <Lead danger={receipt.urgency === "emergency"}>{bookingToast(receipt.urgency).description}</Lead>
          <div className="mt-6">
            <BookingConfirmation
              businessName={lead.businessName}
              slug={lead.slug}
              receipt={receipt}
              offers={lead.offers}
            />
          </div>
        </>
      );
    case "find-pros": {
      const emergency = receipt.urgency === "emergency";
      return (
        <>
          {heading}
          {emergency ? (
            <div className="mt-5">
              <EmergencyCall />
            </div>
          ) : null}
          <Lead>Thanks! We&apos;ve got your request for quotes.</Lead>
          {lead.storm ? <StormNotice notice={lead.storm} className="mt-5" safetyShown={emergency} /> : null}
          {lead.offers ? (
            <div className="mt-4">
              <OffersNow text={offersNow(lead.offers, receipt.urgency)} />
            </div>
          ) : null}
          <div className="mt-5">
            <ReceiptNote receipt={receipt} />
          </div>
          {lead.matches.length > 0 || !lead.offers ? (
            <>
              <h2 className="mt-8 text-xl font-bold text-forest-950">Your matches</h2>
              <Matches matches={lead.matches} receipt={receipt} />
            </>
          ) : null}
          {emergency ? null : <CallUs />}
        </>
      );
    }
  }
}
