/**
 * Previous / Next with "Page X of Y" (spec section 9 fixes the page size, not the control).
 * Buttons rather than links: the pages exist only through the API, a ?page=2 link would
 * show page 1 to anyone without JavaScript.
 */

const LEFT = "m15 6-6 6 6 6";
const RIGHT = "m9 6 6 6-6 6";

function Arrow({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}

interface Props {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

const button = "btn-outline px-4 disabled:cursor-not-allowed disabled:border-slate-200 disabled:bg-white disabled:text-slate-400";

export function Pagination({ page, pages, onPage }: Props) {
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-between gap-3 sm:justify-center sm:gap-6">
      <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Arrow d={LEFT} />
        Previous
      </button>
      <p className="text-sm font-medium whitespace-nowrap text-slate-700" data-testid="page-status">
        Page {page} of {pages}
      </p>
      <button type="button" className={button} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
        <Arrow d={RIGHT} />
      </button>
    </nav>
  );
}
