/**
 * The directory island's reads (src/islands/directory/list/fetch.ts on the shared query
 * context, src/lib/stores/query.ts) against a stubbed fetch: what the cache promises (never
 * stale, no retries) and what the island relies on (the server's page is not asked for
 * again, one request per state, a failure is not kept).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/lib/api.ts";
import { DEFAULT_DIRECTORY_STATE, businessesApiUrl, type DirectoryState } from "../../src/lib/directory-url.ts";
import { $listPage, seedPage, showState } from "../../src/islands/directory/list/fetch.ts";
import type { ListPage } from "../../src/lib/directory-list.ts";

const S = (fields: Partial<DirectoryState>): DirectoryState => ({ ...DEFAULT_DIRECTORY_STATE, ...fields });

/** A fetch whose answers the test releases one by one; `calls` lists the URLs asked for. */
function heldFetch() {
  const calls: string[] = [];
  const pending: { url: string; answer: (res: Response) => void }[] = [];
  const fetch = vi.fn((url: string) => {
    calls.push(url);
    return new Promise<Response>((answer) => pending.push({ url, answer }));
  });
  const release = (url: string, res: Response) => {
    const i = pending.findIndex((p) => p.url === url);
    pending.splice(i, 1)[0]!.answer(res);
  };
  return { fetch, calls, release };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
// The store follows its key atom on the next task (nanostores' batched), answers after awaits.
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
async function show(state: DirectoryState) {
  showState(state);
  await settled();
}

describe("the directory list's query store", () => {
  let net: ReturnType<typeof heldFetch>;
  let stop: () => void;

  beforeEach(() => {
    net = heldFetch();
    vi.stubGlobal("fetch", net.fetch);
    stop = $listPage.listen(() => {});
  });

  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
  });

  it("shows a page the server rendered without asking for it", async () => {
    const state = S({ search: "seeded" });
    const page: ListPage = { data: [], total: 7 };
    seedPage(state, page);
    await show(state);
    expect($listPage.get()).toMatchObject({ data: page, loading: false });
    expect(net.calls).toEqual([]);
  });

  it("asks once per state: a state in flight or seen before is not asked again", async () => {
    const a = S({ city: "austin" });
    const b = S({ city: "dallas" });
    await show(a);
    expect($listPage.get().loading).toBe(true);
    await show(b);
    await show(a);
    expect(net.calls).toEqual([businessesApiUrl(a), businessesApiUrl(b)]);

    net.release(businessesApiUrl(a), json({ data: [], total: 3 }));
    await settled();
    expect($listPage.get()).toMatchObject({ data: { total: 3 }, loading: false });

    // b answers while a is shown: it is cached, and a's page stays on screen.
    net.release(businessesApiUrl(b), json({ data: [], total: 5 }));
    await settled();
    expect($listPage.get().data?.total).toBe(3);
    await show(b);
    expect($listPage.get()).toMatchObject({ data: { total: 5 }, loading: false });
    await show(a);
    expect($listPage.get().data?.total).toBe(3);
    expect(net.calls).toHaveLength(2);
  });

  it("shows a failure without retrying it, and asks again when the state comes back", async () => {
    vi.useFakeTimers();
    try {
      const failing = S({ city: "houston" });
      showState(failing);
      await vi.advanceTimersByTimeAsync(0);
      net.release(businessesApiUrl(failing), json({ error: "boom" }, 500));
      await vi.advanceTimersByTimeAsync(0);
      const { error } = $listPage.get();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(500);
      // No automatic retry, however long the page stays open.
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(net.calls).toHaveLength(1);

      showState(S({ city: "san-antonio" }));
      await vi.advanceTimersByTimeAsync(0);
      showState(failing);
      await vi.advanceTimersByTimeAsync(0);
      expect(net.calls.filter((url) => url === businessesApiUrl(failing))).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("Retry (invalidate) asks again for the state shown", async () => {
    const state = S({ search: "retry" });
    await show(state);
    net.release(businessesApiUrl(state), json({ data: [], total: 1 }));
    await settled();
    $listPage.invalidate();
    expect($listPage.get().loading).toBe(true);
    expect(net.calls).toEqual([businessesApiUrl(state), businessesApiUrl(state)]);
    net.release(businessesApiUrl(state), json({ data: [], total: 2 }));
    await settled();
    expect($listPage.get()).toMatchObject({ data: { total: 2 }, loading: false });
  });

  it("reads a page's list, total and place, and tolerates missing fields", async () => {
    const state = S({ near: "78664" });
    await show(state);
    net.release(
      businessesApiUrl(state),
      json({ total: 4, near: { label: "Round Rock, TX 78664", radius: 25, lat: 1, lng: 2 } }),
    );
    await settled();
    expect($listPage.get().data).toEqual({ data: [], total: 4, near: { label: "Round Rock, TX 78664", radius: 25 } });
  });
});
