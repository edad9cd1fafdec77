/**
 * The list state's browser history (decision, see useDirectoryList): filters and pages are
 * separate entries, so Back returns to the previous committed search, city or page. Typing
 * is one entry per burst, not per keystroke: the first debounced commit of a burst pushes,
 * the following ones replace that same entry. Entries are marked in history.state so a
 * burst resumed after Back/Forward keeps replacing the entry it started from.
 */
import { serializeDirectoryQuery, type DirectoryState } from "../../../lib/directory-url.ts";

const KEY = "treelineDirectory";

/** push: a new entry. replace: rewrite the current one (canonical URL, page clamp). typing: see above. */
export type HistoryEntry = "push" | "replace" | "typing";

function currentMark(): { typing?: boolean } | undefined {
  const state: unknown = window.history.state;
  if (!state || typeof state !== "object") return undefined;
  const mark = (state as Record<string, unknown>)[KEY];
  return mark && typeof mark === "object" ? (mark as { typing?: boolean }) : undefined;
}

export function directoryUrl(state: DirectoryState): string {
  return `${window.location.pathname}${serializeDirectoryQuery(state)}`;
}

export function writeHistory(state: DirectoryState, entry: HistoryEntry): void {
  const url = directoryUrl(state);
  const wasTyping = currentMark()?.typing === true;
  if (entry === "push" || (entry === "typing" && !wasTyping)) {
    window.history.pushState({ [KEY]: { typing: entry === "typing" } }, "", url);
    return;
  }
  const previous = (
    window.history.state && typeof window.history.state === "object" ? window.history.state : {}
  ) as Record<string, unknown>;
  window.history.replaceState({ ...previous, [KEY]: { typing: wasTyping } }, "", url);
}
