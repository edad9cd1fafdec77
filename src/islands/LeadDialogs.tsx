/**
 * The site's dialogs (quote, audit, assessment, and on business pages booking and review)
 * and its toasts, mounted once per page
 * with `client:intent`: nothing here downloads until a visitor reaches for a
 * `[data-dialog]` trigger. On mount it opens whatever the directive queued (the click
 * that caused the download), then owns trigger clicks through one delegated listener
 * that calls the store actions other islands use too.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { intentState, type DialogRequest } from "../integrations/intent-queue.ts";
import { $dialog, closeDialog, openFromDataset, type AssessmentPreset, type QuotePreset } from "../lib/stores/dialogs.ts";
import { BookingDialogBody } from "./leads/BookingDialog.tsx";
import { BusinessDialogBody } from "./leads/BusinessDialog.tsx";
import { DialogShell } from "./leads/DialogShell.tsx";
import { QuoteDialogBody } from "./leads/QuoteDialog.tsx";
import { ReviewDialogBody } from "./leads/ReviewDialog.tsx";
import { Toaster } from "./leads/Toaster.tsx";

interface Props {
  /**
   * The page's own preselection, used when a dialog is asked for by URL fragment
   * (`/services/tree-removal#quote`, `/business-growth/phase-3#assessment`) rather than
   * by a trigger that carries its own data-* attributes.
   */
  presets?: { quote?: QuotePreset; assessment?: AssessmentPreset };
}

const TRIGGER = "[data-dialog]";

export default function LeadDialogs({ presets = {} }: Props) {
  const dialog = useStore($dialog);
  const [mounted, setMounted] = useState(false);
  /** The trigger (or whatever had focus) to return to when the dialog closes. */
  const returnTo = useRef<HTMLElement | null>(null);
  const presetsRef = useRef(presets);

  useEffect(() => {
    const open = (request: DialogRequest, trigger?: HTMLElement | null) => {
      const fromPage = request.fromHash && (request.dialog === "quote" || request.dialog === "assessment") ? presetsRef.current[request.dialog] : undefined;
      // Clicks on a link do not focus it in every browser (Safari); remember the link itself.
      returnTo.current = trigger ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
      openFromDataset({ ...fromPage, ...request });
    };

    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const trigger = (event.target as Element | null)?.closest?.<HTMLElement>(TRIGGER);
      if (!trigger) return;
      event.preventDefault();
      open({ ...trigger.dataset }, trigger);
    };
    document.addEventListener("click", onClick);

    // Take over from the directive: open what was asked for before we existed (the last
    // request wins: a visitor who tapped twice wants the second one).
    const state = intentState();
    const queued = state.q.splice(0);
    state.open = (request) => open(request);
    const last = queued.at(-1);
    if (last) open(last);
    setMounted(true);
    return () => {
      document.removeEventListener("click", onClick);
      state.open = undefined;
    };
  }, []);

  if (!mounted) return null;
  return (
    <>
      {dialog ? (
        <DialogShell key={dialog.seq} open onClose={closeDialog} returnFocus={() => returnTo.current} wide={dialog.name !== "quote"}>
          {dialog.name === "quote" ? (
            <QuoteDialogBody preset={dialog.preset} />
          ) : dialog.name === "booking" ? (
            <BookingDialogBody preset={dialog.preset} />
          ) : dialog.name === "review" ? (
            <ReviewDialogBody preset={dialog.preset} />
          ) : (
            <BusinessDialogBody kind={dialog.name} phase={dialog.name === "assessment" ? dialog.preset.phase : undefined} />
          )}
        </DialogShell>
      ) : null}
      <Toaster />
    </>
  );
}
