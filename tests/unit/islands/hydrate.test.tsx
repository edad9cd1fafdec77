// @vitest-environment happy-dom
/**
 * The islands' client entry (src/islands/hydrate.ts): it hydrates each wanted island's
 * server HTML in place with the props the page carries (rebuilt by the module's transport),
 * and when that fails (the directory list's API read, offline, a replaced chunk) it leaves
 * the server's HTML working and tries again the next time the island is wanted. The inline
 * loader that marks islands as wanted is src/scripts/islands.ts (Playwright's).
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import DirectoryList, { transport } from "../../../src/islands/DirectoryList.tsx";
import { countText } from "../../../src/islands/directory/list/result.ts";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { HYDRATED } from "../../../src/lib/dialogs.ts";
import { DEFAULT_DIRECTORY_STATE } from "../../../src/lib/directory-url.ts";
import {
  ISLAND_ATTRIBUTE,
  ISLAND_PROPS,
  ISLAND_WANTED,
  ISLAND_WANTED_EVENT,
  islandIdPrefix,
} from "../../../src/lib/islands.ts";
import { QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { businesses, directoryApi, listBusiness, pageOf } from "../../helpers/businesses.ts";
import { mockFetch, reply } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const ALL = businesses(30);
const FEATURED = [listBusiness(101, { name: "Featured Oak", isFeatured: true })];

/** What Island.astro writes: the server HTML in a root naming the island and carrying its (sent) props. */
function island(name: string, html: string, sent: object, wanted = true) {
  const root = document.createElement("div");
  root.className = "contents";
  root.setAttribute(ISLAND_ATTRIBUTE, name);
  const json = JSON.stringify(sent);
  if (json !== "{}") root.setAttribute(ISLAND_PROPS, json);
  if (wanted) root.setAttribute(ISLAND_WANTED, "");
  root.innerHTML = html;
  return root;
}

/** The loader's signal to a running entry. */
function want(root: HTMLElement) {
  root.setAttribute(ISLAND_WANTED, "");
  root.dispatchEvent(new Event(ISLAND_WANTED_EVENT, { bubbles: true }));
}

const props = { initialState: DEFAULT_DIRECTORY_STATE, initialPage: pageOf(ALL), featured: FEATURED, now: 0 };
const directoryHtml = () =>
  renderToString(<DirectoryList {...props} />, { identifierPrefix: islandIdPrefix("DirectoryList") });

beforeAll(() => {
  // hydrate.ts hydrates outside Testing Library's act(), as in the browser.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
});
afterAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

describe("hydrate.ts", () => {
  it("an island wanted before the entry runs is hydrated at once, with its props and id prefix", async () => {
    const api = mockFetch();
    api.on("POST", "/api/quote", reply.json(201, { ok: true }));
    const sent = { kind: "quote", source: "/" };
    const dialog = document.createElement("dialog");
    dialog.id = "quote-dialog";
    dialog.dataset.testFrame = "";
    const root = island("LeadDialogs", renderToString(<LeadDialogs kind="quote" source="/" />), sent);
    dialog.append(root);
    document.body.append(dialog);
    dialog.showModal();
    await import("../../../src/islands/hydrate.ts");
    await waitFor(() => expect(root.querySelector("form")!.hasAttribute(HYDRATED)).toBe(true));
    // Hydrated, not replaced: the same form element, now with its island's behavior.
    await userEvent.click(within(root).getByRole("button", { name: QUOTE_FORM.submit }));
    await waitFor(() => expect(root.querySelector('[aria-invalid="true"]')).toBeTruthy());
  });

  it("when the props cannot be rebuilt the server's list stays as it is, and the next want tries again", async () => {
    const api = mockFetch();
    api.on("GET", "/api/businesses", directoryApi(ALL));
    api.on("GET", "/api/businesses/featured", reply.json(503, { error: "unavailable" }));
    const failed = vi.spyOn(console, "error").mockImplementation(() => {});
    const root = island("DirectoryList", directoryHtml(), transport.send(props), false);
    root.dataset.testFrame = "";
    document.body.append(root);
    const firstCard = root.querySelector("[data-testid=business-card]");

    want(root);
    await waitFor(() =>
      expect(failed).toHaveBeenCalledWith("[islands] DirectoryList could not load", expect.anything()),
    );
    expect(root.hasAttribute(ISLAND_WANTED)).toBe(false);
    expect(screen.getByTestId("directory").hasAttribute("data-hydrated")).toBe(false);
    expect(root.querySelectorAll("[data-testid=results] [data-testid=business-card]")).toHaveLength(12);

    api.on("GET", "/api/businesses/featured", reply.json(200, { data: FEATURED }));
    want(root);
    await waitFor(() => expect(screen.getByTestId("directory").dataset.hydrated).toBe("true"));
    // One console error only, the load failure: no hydration mismatch.
    expect(failed).toHaveBeenCalledTimes(1);
    // The server's nodes were kept (a mismatch would have replaced them).
    expect(root.querySelector("[data-testid=business-card]")).toBe(firstCard);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "City" }), "dallas");
    await waitFor(() =>
      expect(screen.getByTestId("results-count").textContent).toBe(
        countText(ALL.filter((b) => b.city === "Dallas").length),
      ),
    );

    // Once in, another want changes nothing.
    const asked = api.calls.length;
    want(root);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.to("/api/businesses/featured").length + api.to("/api/businesses").length).toBe(asked);
  });

  it("a root naming no island is left alone", async () => {
    const api = mockFetch();
    const root = island("NoSuchIsland", "<p>server</p>", {}, false);
    root.dataset.testFrame = "";
    document.body.append(root);
    want(root);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(root.innerHTML).toBe("<p>server</p>");
    expect(api.calls).toEqual([]);
  });
});
