/**
 * Radix Toast for the site's notifications: one at a time, 5000 ms,
 * swipe right 50 px to dismiss, F8 focuses the region. The static NotificationRegion
 * stands in until this mounts; it is then removed so the page keeps exactly one region
 * named "Notifications (F8)".
 */
import { useStore } from "@nanostores/react";
import { Toast } from "radix-ui";
import { useEffect, useLayoutEffect, useState } from "react";
import { createPortal } from "react-dom";
import { createRoot } from "react-dom/client";
import { HOTLINE, RECEIPT_COPY } from "../../lib/forms/copy.ts";
import { SITE } from "../../lib/site.ts";
import { $toasts, dismissToast } from "../../lib/stores/dialogs.ts";
import { Icon } from "../../views/Icon.tsx";

/** NotificationRegion.astro's id; the Radix list takes it over so links to #notifications keep working. */
const REGION_ID = "notifications";
const DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export function Toaster() {
  const toasts = useStore($toasts);
  const [ready, setReady] = useState(false);

  useLayoutEffect(() => {
    // Hand over from the static placeholder before painting the Radix viewport.
    document.querySelector("[data-notification-region]")?.remove();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a second pass after mount, once the placeholder is gone
    setReady(true);
  }, []);

  if (!ready) return null;
  return (
    <Toast.Provider
      duration={DURATION_MS}
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
      label="Notification"
    >
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          duration={toast.duration}
          onOpenChange={(open) => !open && dismissToast(toast.id)}
          className={[
            "pointer-events-auto relative flex w-full items-start gap-3 rounded-card border p-4 pr-11 shadow-lift",
            "touch-pan-y data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform",
            "data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]",
            toast.variant === "destructive"
              ? "border-red-700 bg-red-700 text-white"
              : "border-forest-200 bg-white text-slate-800",
          ].join(" ")}
          data-variant={toast.variant}
        >
          <div className="grid gap-1">
            <Toast.Title
              className={toast.variant === "destructive" ? "font-semibold text-white" : "font-semibold text-forest-950"}
            >
              {toast.title}
            </Toast.Title>
            {toast.description || toast.reference ? (
              <Toast.Description
                className={toast.variant === "destructive" ? "text-sm text-red-50" : "text-sm text-slate-600"}
              >
                {toast.description}
                {toast.reference ? <ToastReference reference={toast.reference} /> : null}
              </Toast.Description>
            ) : null}
            {toast.call ? (
              // An emergency: our own line as a button, named as ours.
              <a href={SITE.phoneHref} className="btn-primary btn-sm mt-1 justify-self-start">
                <Icon name="phone" className="size-4" />
                <span>
                  {HOTLINE.label}: <span className="whitespace-nowrap">{SITE.phone}</span>
                </span>
              </a>
            ) : null}
            {toast.action ? (
              // A link, not a button: it goes somewhere. altText is what a screen reader hears instead.
              <Toast.Action altText={RECEIPT_COPY.trackElsewhere} asChild>
                <a href={toast.action.href} className="link justify-self-start text-sm font-semibold">
                  {toast.action.label}
                </a>
              </Toast.Action>
            ) : null}
          </div>
          <Toast.Close
            aria-label="Close"
            className={[
              "absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-md",
              toast.variant === "destructive" ? "text-red-50 hover:bg-red-800" : "text-slate-500 hover:bg-forest-50",
            ].join(" ")}
          >
            <Icon name="close" className="size-4" />
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* Top of the screen on phones, where it cannot cover a bottom-sheet dialog's buttons. */}
      <Toast.Viewport
        id={REGION_ID}
        className="pointer-events-none fixed top-0 right-0 sm:top-auto sm:bottom-0 z-[60] m-0 flex max-h-screen w-full list-none flex-col gap-2 p-4 outline-none sm:bottom-4 sm:max-w-sm"
      />
    </Toast.Provider>
  );
}

function ToastReference({ reference }: { reference: string }) {
  return (
    <span className="mt-1 block">
      {RECEIPT_COPY.referenceLabel} <strong className="font-mono">{reference}</strong>
    </span>
  );
}

const openModal = () => document.querySelector<HTMLDialogElement>("dialog[open]:modal");

/**
 * Everything outside an open modal `<dialog>` is inert and sits under its backdrop, so while
 * one is open the toasts live inside it (still fixed to the viewport), and go back to the
 * body once it closes.
 */
function ToasterHost({ host }: { host: HTMLElement }) {
  const [dialog, setDialog] = useState(openModal);
  useEffect(() => {
    // `toggle` does not bubble; a capturing listener still sees every dialog's.
    const sync = () => setDialog(openModal());
    document.addEventListener("toggle", sync, true);
    document.addEventListener("close", sync, true);
    return () => {
      document.removeEventListener("toggle", sync, true);
      document.removeEventListener("close", sync, true);
    };
  }, []);
  return createPortal(<Toaster />, dialog ?? host);
}

let mounted = false;

/**
 * Mounts the one Toaster of the page (idempotent). Called by whichever island hydrates
 * first that may raise a toast, so toasts cost nothing until an island is in use.
 */
export function ensureToaster(): void {
  if (mounted || typeof document === "undefined") return;
  mounted = true;
  const host = document.createElement("div");
  document.body.append(host);
  createRoot(host).render(<ToasterHost host={host} />);
}
