/**
 * Pieces the lead dialogs' views share. The frame itself (the native `<dialog>`, its close
 * button, bottom sheet on phones and centered card from sm) is static markup in
 * src/components/LeadDialog.astro; these render inside it, and the no-JS pages reuse them.
 */
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { Icon } from "../Icon.tsx";

/**
 * The dialog's accessible name and description: the `<dialog>` points at these ids
 * (`{dialogId}-title`, `{dialogId}-description`), and each view (form, confirmation) fills
 * them with its own words.
 */
export function DialogHeader({
  dialogId,
  title,
  description,
  danger = false,
}: {
  dialogId: string;
  title: string;
  description: string;
  /** The description is an emergency's 911 line: in the danger's colors. */
  danger?: boolean;
}) {
  const header = useRef<HTMLDivElement>(null);
  // A new step (the confirmation after a long form) starts at its top: the sheet would keep
  // the form's scroll and show the middle of the confirmation, its heading out of view.
  useLayoutEffect(() => {
    header.current?.closest("dialog")?.scrollTo?.({ top: 0 });
  }, [title]);
  return (
    <div ref={header} className="mb-5 pr-10">
      <h2 id={`${dialogId}-title`} className="text-2xl leading-tight font-bold text-forest-950">
        {title}
      </h2>
      <p
        id={`${dialogId}-description`}
        className={danger ? "mt-1.5 text-lg font-bold text-red-900" : "mt-1.5 text-slate-600"}
      >
        {description}
      </p>
    </div>
  );
}

/** Check-mark list item used by the confirmations. */
export function CheckItem({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-2.5">
      <Icon name="check" className="mt-0.5 size-5 shrink-0 stroke-[2.5] text-forest-600" />
      <span>{children}</span>
    </li>
  );
}
