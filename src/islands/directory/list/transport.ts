/**
 * The /directory island's props and how they travel from the page to the browser.
 *
 * The list and Featured are in the page as HTML; sending them again as JSON made the page
 * too heavy for one round trip (docs/directory-pages.md). The browser reads them back from
 * the same cached API answers the page was rendered from (both carry the `directory` cache
 * tag, so a write purges them together). A page rendered without the store (an outage: no
 * Featured) sends its empty list as it is.
 */
import type { PropsTransport } from "../../../lib/islands.ts";
import {
  DEFAULT_DIRECTORY_STATE,
  businessesApiUrl,
  sameDirectoryState,
  type DirectoryState,
} from "../../../lib/directory-url.ts";
import type { ListBusiness, ListPage } from "../../../lib/directory-list.ts";
import { fetchFeaturedList, fetchListPage } from "./fetch.ts";

export interface DirectoryListProps {
  /** The page the server rendered for `initialState` (the request's URL). */
  initialPage: ListPage;
  /** The list state of the request's URL; the unfiltered first page when absent. */
  initialState?: DirectoryState;
  /** The server refused `initialState` (e.g. an unknown place): its field messages. */
  initialFields?: Record<string, string>;
  /** Featured businesses, prerendered; when absent the island fetches them after hydration. */
  featured?: ListBusiness[];
  /** When the server drew the cards' Open now / Closed badges (ms); none without it. */
  now?: number;
}

/** What /directory's HTML carries of the props: the state, without the businesses its HTML already shows. */
type SentProps = Omit<DirectoryListProps, "initialPage" | "featured"> & { initialPage?: ListPage };

export const transport: PropsTransport<DirectoryListProps, SentProps> = {
  send: ({ initialPage, featured, initialState, ...rest }) => {
    // The plain /directory, the page most visitors land on, sends no state at all.
    const sent =
      initialState && !sameDirectoryState(initialState, DEFAULT_DIRECTORY_STATE) ? { ...rest, initialState } : rest;
    return featured ? sent : { ...sent, initialPage };
  },
  async restore(sent) {
    if (sent.initialPage) return { ...sent, initialPage: sent.initialPage };
    const [initialPage, featured] = await Promise.all([
      // A refused state (initialFields) rendered an empty list; the API would refuse it again.
      sent.initialFields
        ? { data: [], total: 0 }
        : fetchListPage(businessesApiUrl(sent.initialState ?? DEFAULT_DIRECTORY_STATE)),
      fetchFeaturedList(),
    ]);
    return { ...sent, initialPage, featured };
  },
};
