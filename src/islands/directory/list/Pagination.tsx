/**
 * Previous / Next with "Page X of Y" (the page size is DIRECTORY_PAGE_SIZE).
 * Links to the on-demand /directory?page=N (the pages navigate, and a visitor without
 * JavaScript or a crawler follows them); with the island running, a plain click is taken
 * over and the page loads through the API instead. An unavailable direction is plain text.
 */
import type { MouseEvent } from "react";
import { isPlainClick } from "./NextSteps.tsx";
import { Icon } from "../../../views/Icon.tsx";

interface Props {
  page: number;
  pages: number;
  /** The URL of a page (the island's URL state with that page). */
  hrefFor: (page: number) => string;
  onPage: (page: number) => void;
}

// Narrower on a phone: both buttons and "Page 10 of 16" fit one row down to 320 px (below
// 24rem the buttons show their arrow only; the word stays their name).
const link = "btn-outline min-w-11 px-3 sm:px-4";
const unavailable =
  "btn-outline min-w-11 px-3 sm:px-4 cursor-not-allowed border-slate-200 bg-white text-slate-400 hover:bg-white";

export function Pagination({ page, pages, hrefFor, onPage }: Props) {
  const step = (target: number, enabled: boolean, label: "Previous" | "Next") => {
    const content =
      label === "Previous"
        ? [
            <Icon key="a" name="chevronLeft" />,
            <span key="l" className="max-[24rem]:sr-only">
              {label}
            </span>,
          ]
        : [
            <span key="l" className="max-[24rem]:sr-only">
              {label}
            </span>,
            <Icon key="a" name="chevronRight" />,
          ];
    if (!enabled) {
      return (
        <span className={unavailable} aria-disabled="true" data-testid={`page-${label.toLowerCase()}`}>
          {content}
        </span>
      );
    }
    const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
      // New tab, new window, download: the browser's own navigation.
      if (!isPlainClick(event)) return;
      event.preventDefault();
      onPage(target);
    };
    return (
      <a
        href={hrefFor(target)}
        className={link}
        rel={label === "Previous" ? "prev" : "next"}
        onClick={onClick}
        data-testid={`page-${label.toLowerCase()}`}
      >
        {content}
      </a>
    );
  };
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-between gap-2 sm:justify-center sm:gap-6">
      {step(page - 1, page > 1, "Previous")}
      <p className="text-sm font-medium whitespace-nowrap text-slate-700" data-testid="page-status">
        Page {page} of {pages}
      </p>
      {step(page + 1, page < pages, "Next")}
    </nav>
  );
}
