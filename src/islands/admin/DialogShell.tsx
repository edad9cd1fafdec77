/**
 * The admin's lead-detail dialog frame (the public lead dialogs are native `<dialog>`s, see
 * src/components/LeadDialog.astro; the admin is a client-only app): Radix Dialog (focus trap, Escape, scroll lock,
 * aria-modal, labeled by its title and description) styled as a bottom sheet on phones
 * and a centered card from the sm breakpoint. Content taller than 80% of the viewport
 * scrolls inside the dialog.
 */
import { Dialog } from "radix-ui";
import { useRef, type ReactNode } from "react";
import { Icon } from "../../views/Icon.tsx";

interface Props {
  open: boolean;
  onClose: () => void;
  /** Element to give focus back to on close (the trigger), when still in the page. */
  returnFocus: () => HTMLElement | null;
  /** Wider layout for the long business forms. */
  wide?: boolean;
  children: ReactNode;
}

export function DialogShell({ open, onClose, returnFocus, wide, children }: Props) {
  const contentRef = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-forest-950/55 backdrop-blur-[2px]" />
        <Dialog.Content
          ref={contentRef}
          className={[
            "fixed inset-x-0 bottom-0 z-50 max-h-[80vh] overflow-y-auto overscroll-contain rounded-t-2xl bg-white px-5 pt-6 pb-[max(1.5rem,env(safe-area-inset-bottom))] shadow-lift outline-none",
            "sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-[calc(100%-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-card sm:px-7 sm:pt-7 sm:pb-7",
            wide ? "sm:max-w-2xl" : "sm:max-w-lg",
          ].join(" ")}
          onOpenAutoFocus={(event) => {
            // On touch screens focusing the first input would throw the keyboard over the sheet
            // before the visitor has read it; focus the dialog itself there instead.
            if (!matchMedia("(pointer: fine)").matches) {
              event.preventDefault();
              contentRef.current?.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            // Without a Radix Trigger there is nothing to return to; go back to the link that opened us.
            const target = returnFocus();
            if (target?.isConnected) {
              event.preventDefault();
              target.focus({ preventScroll: true });
            }
          }}
        >
          {children}
          <Dialog.Close
            aria-label="Close"
            className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full text-slate-500 hover:bg-forest-50 hover:text-forest-900"
          >
            <Icon name="close" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The dialog's accessible name and description; each view (form, confirmation) sets its own. */
export function DialogHeader({ title, description }: { title: string; description: string }) {
  return (
    <div className="mb-5 pr-10">
      <Dialog.Title className="text-2xl leading-tight font-bold text-forest-950">{title}</Dialog.Title>
      <Dialog.Description className="mt-1.5 text-slate-600">{description}</Dialog.Description>
    </div>
  );
}
