/** What the directory list shows for the list store's value: a page, loading, an error or the API's refusal. */
import { ApiError } from "../../../lib/api.ts";
import type { ListPage } from "../../../lib/directory-list.ts";

const NETWORK_MESSAGE = "We couldn't reach our server. Check your connection and try again.";
const FAILED_MESSAGE = "We couldn't load tree services just now. Please try again.";

export type Result =
  | { status: "ready"; page: ListPage }
  | { status: "loading" }
  | { status: "error"; message: string }
  /** The API refused the query (400): its field messages, e.g. an unknown place. */
  | { status: "invalid"; fields: Record<string, string> };

/** What the list store holds, as the list shows it; `shown` while it holds nothing yet. */
export function resultOf(
  { data, error, loading }: { data?: ListPage; error?: unknown; loading: boolean },
  shown: Result,
): Result {
  if (loading) return { status: "loading" };
  if (error !== undefined) {
    const fields = error instanceof ApiError && error.status === 400 ? error.fields : undefined;
    if (fields && Object.keys(fields).length > 0) return { status: "invalid", fields };
    return { status: "error", message: error instanceof ApiError ? FAILED_MESSAGE : NETWORK_MESSAGE };
  }
  return data ? { status: "ready", page: data } : shown;
}

/** The results count, also announced: "12 businesses found", plus "within N miles of" a place searched near. */
export function countText(total: number, near?: ListPage["near"]): string {
  const found = `${total} ${total === 1 ? "business" : "businesses"} found`;
  return near ? `${found} within ${near.radius} miles of ${near.label}` : found;
}
