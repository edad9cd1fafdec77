/**
 * How /directory's island props travel (DirectoryList's `transport`, PropsTransport in
 * src/lib/islands.ts): the page carries the state only, and the browser reads the list and
 * Featured back from the API before hydrating. What the server rendered and what hydration
 * gets must be the same props, or React would throw the server's HTML away.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { transport } from "../../src/islands/directory/list/transport.ts";
import { DEFAULT_DIRECTORY_STATE, businessesApiUrl, type DirectoryState } from "../../src/lib/directory-url.ts";
import { toListBusiness, type ListBusiness, type ListPage } from "../../src/lib/directory-list.ts";

const S = (fields: Partial<DirectoryState>): DirectoryState => ({ ...DEFAULT_DIRECTORY_STATE, ...fields });

/** A business as the API answers it: more fields than the list keeps. */
function apiBusiness(n: number): ListBusiness & { address: string; photos: string[] } {
  return {
    id: `b${n}`,
    name: `Oak Pros ${n}`,
    slug: `oak-pros-${n}`,
    description: "Pruning and removal.",
    city: "Austin",
    state: "TX",
    phone: "(512) 555-0100",
    rating: "4.5",
    reviewCount: 12,
    isFeatured: n === 1,
    services: ["Tree Removal"],
    businessHours: { mon: { open: "08:00", close: "17:00" } },
    timeZone: "America/Chicago",
    address: "1 Main St",
    photos: ["/a.jpg"],
  } as unknown as ListBusiness & { address: string; photos: string[] };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A fetch that answers the list and Featured from `answers` by path and query; `calls` lists what was asked. */
function apiFetch(answers: Record<string, Response | (() => Response)>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (url: string) => {
    calls.push(url);
    const answer = answers[url];
    if (!answer) return json({ error: "not stubbed" }, 500);
    return typeof answer === "function" ? answer() : answer.clone();
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("DirectoryList's props transport", () => {
  const listed = [apiBusiness(2), apiBusiness(3)];
  const featured = [apiBusiness(1)];
  const page: ListPage = { data: listed.map(toListBusiness), total: 14 };

  it("sends neither the businesses nor the plain /directory's state", () => {
    const sent = transport.send({
      initialState: DEFAULT_DIRECTORY_STATE,
      initialPage: page,
      featured: featured.map(toListBusiness),
    });
    expect(sent).toEqual({});
  });

  it("sends a narrowed state and the server's field messages, still without businesses", () => {
    const state = S({ near: "99999" });
    const fields = { near: "We couldn't find that place." };
    const sent = transport.send({
      initialState: state,
      initialFields: fields,
      initialPage: { data: [], total: 0 },
      featured: [],
    });
    expect(sent).toEqual({ initialState: state, initialFields: fields });
    expect(JSON.stringify(sent)).not.toContain("initialPage");
  });

  it("restores the props the server rendered from the same API answers", async () => {
    const state = S({ search: "oak", page: 2 });
    const calls = apiFetch({
      [businessesApiUrl(state)]: json({ data: listed, total: 14 }),
      "/api/businesses/featured": json({ data: featured }),
    });
    const props = { initialState: state, initialPage: page, featured: featured.map(toListBusiness) };
    await expect(transport.restore(transport.send(props))).resolves.toEqual(props);
    expect(calls.sort()).toEqual([businessesApiUrl(state), "/api/businesses/featured"].sort());
  });

  it("reads the first page for the plain /directory", async () => {
    const calls = apiFetch({
      [businessesApiUrl(DEFAULT_DIRECTORY_STATE)]: json({ data: listed, total: 14 }),
      "/api/businesses/featured": json({ data: featured }),
    });
    const restored = await transport.restore({});
    expect(restored.initialPage).toEqual(page);
    expect(restored.featured).toEqual(featured.map(toListBusiness));
    expect(calls).toContain(businessesApiUrl(DEFAULT_DIRECTORY_STATE));
  });

  it("keeps a near search's center", async () => {
    const state = S({ near: "78701", radius: 10 });
    apiFetch({
      [businessesApiUrl(state)]: json({ data: listed, total: 2, near: { label: "Austin, TX 78701", radius: 10 } }),
      "/api/businesses/featured": json({ data: featured }),
    });
    const restored = await transport.restore({ initialState: state });
    expect(restored.initialPage).toEqual({
      data: listed.map(toListBusiness),
      total: 2,
      near: { label: "Austin, TX 78701", radius: 10 },
    });
  });

  it("does not ask for a list the API refused: the server rendered it empty", async () => {
    const state = S({ near: "99999" });
    const fields = { near: "We couldn't find that place." };
    const calls = apiFetch({ "/api/businesses/featured": json({ data: featured }) });
    const restored = await transport.restore({ initialState: state, initialFields: fields });
    expect(restored).toEqual({
      initialState: state,
      initialFields: fields,
      initialPage: { data: [], total: 0 },
      featured: featured.map(toListBusiness),
    });
    expect(calls).toEqual(["/api/businesses/featured"]);
  });

  it("sends a page rendered during a store outage as it is, and asks for nothing", async () => {
    const calls = apiFetch({});
    const props = { initialState: DEFAULT_DIRECTORY_STATE, initialPage: { data: [], total: 0 } };
    const sent = transport.send(props);
    expect(sent).toEqual({ initialPage: { data: [], total: 0 } });
    await expect(transport.restore(sent)).resolves.toEqual({ initialPage: { data: [], total: 0 } });
    expect(calls).toEqual([]);
  });

  it("rejects when an answer fails, so the island is tried again later instead of hydrating with other data", async () => {
    apiFetch({
      [businessesApiUrl(DEFAULT_DIRECTORY_STATE)]: json({ data: listed, total: 14 }),
      "/api/businesses/featured": json({ error: "unavailable" }, 503),
    });
    await expect(transport.restore({})).rejects.toThrow(/503/);
  });
});
