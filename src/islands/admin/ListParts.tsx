/**
 * What the admin's lists have in common: the panels' props, the cursor-paged loading behind
 * their lists, the action handler behind their buttons, the inline error and success note, and
 * the "Load more" row with its loading status.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { isAuthError, problem } from "./api.ts";

/** What every list panel of the admin is given. */
export interface PanelProps {
  token: string;
  /** Changes when the list should be read again (focus regained, Refresh). */
  refreshKey: number;
  onAuthError(): void;
}

/** One page of a cursor-paged admin endpoint. */
export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * One read at a time: `run(read, keep)` flags loading, clears the error, awaits `read` and hands
 * its answer to `keep` only when no newer run started meanwhile, so a search typed over a slow
 * page never shows the older list. An expired token signs out; any other failure is the error.
 */
export function useLatestRead(onAuthError: () => void, loadingAtMount: boolean) {
  const [loading, setLoading] = useState(loadingAtMount);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const run = useCallback(
    async <A,>(read: () => Promise<A>, keep: (answer: A) => void) => {
      const seq = ++request.current;
      setLoading(true);
      setError(null);
      try {
        const answer = await read();
        if (seq !== request.current) return;
        keep(answer);
      } catch (e) {
        if (seq !== request.current) return;
        if (isAuthError(e)) onAuthError();
        else setError(problem(e));
      } finally {
        if (seq === request.current) setLoading(false);
      }
    },
    [onAuthError],
  );

  return { loading, error, setError, run };
}

/**
 * Reads the first page on mount, again whenever `fetchPage` or `refreshKey` changes or
 * `reload()` is called, and appends the next page on `more()`; only the latest read is kept
 * (useLatestRead). `onPage` sees every page that is kept (counts, scan totals).
 */
export function useCursorList<T, P extends CursorPage<T> = CursorPage<T>>(
  fetchPage: (cursor: string | null) => Promise<P>,
  refreshKey: number,
  onAuthError: () => void,
  onPage?: (page: P) => void,
) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // The first page is always on its way at mount.
  const { loading, error, setError, run } = useLatestRead(onAuthError, true);

  const load = useCallback(
    (from: string | null) =>
      run(
        () => fetchPage(from),
        (page) => {
          setItems((current) => (from ? [...current, ...page.data] : page.data));
          setCursor(page.nextCursor);
          onPage?.(page);
        },
      ),
    [run, fetchPage, onPage],
  );

  useEffect(() => {
    void load(null);
  }, [load, refreshKey]);

  const reload = useCallback(() => void load(null), [load]);

  return { items, setItems, cursor, loading, error, setError, more: () => void load(cursor), reload };
}

/**
 * One button's call at a time per key: `run(key, fn)` marks `key` busy, clears the last error
 * and success note, awaits `fn`, and on failure signs out (an expired token) or shows the
 * error through `setError`. It resolves to whether `fn` succeeded; `fn` sets the note itself.
 */
export function useAdminAction(onAuthError: () => void, setError: (error: string | null) => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const run = useCallback(
    async (key: string, fn: () => Promise<void>): Promise<boolean> => {
      setBusy(key);
      setError(null);
      setNotice(null);
      try {
        await fn();
        return true;
      } catch (e) {
        if (isAuthError(e)) onAuthError();
        else setError(problem(e));
        return false;
      } finally {
        setBusy(null);
      }
    },
    [onAuthError, setError],
  );

  return { busy, notice, setNotice, run };
}

/** A failed call's message, announced as it appears. */
export function ErrorAlert({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {error}
    </p>
  ) : null;
}

/** What a call just did, announced as it appears. */
export function StatusNote({ notice }: { notice: string | null }) {
  return notice ? (
    <p role="status" className="mt-3 rounded-lg border border-forest-200 bg-forest-50 p-3 text-sm text-forest-900">
      {notice}
    </p>
  ) : null;
}

/** The row under a list: the next-page button while there is a cursor, and the loading status. */
export function Pager({
  cursor,
  loading,
  onMore,
  children = "Load more",
}: {
  cursor: string | null;
  loading: boolean;
  onMore(): void;
  children?: ReactNode;
}) {
  return (
    <div className="mt-4 flex items-center gap-3">
      {cursor ? (
        <button type="button" className="btn-outline btn-sm" onClick={onMore} disabled={loading}>
          {children}
        </button>
      ) : null}
      {loading ? <LoadingNote /> : null}
    </div>
  );
}

/** The pager's "Loading..." while a page is on its way. */
export function LoadingNote() {
  return (
    <span className="text-sm text-slate-500" role="status">
      Loading...
    </span>
  );
}
