/**
 * A stand-in for `fetch` in the island component tests: routes by method and path, records
 * every call (headers and body as sent), and can hold answers back so a test sees the
 * pending state first. A request no route expects rejects loudly (and is recorded), so a
 * stray call fails the test instead of hanging it.
 */
import { vi } from "vitest";

export interface FetchCall {
  method: string;
  url: URL;
  headers: Headers;
  /** The body as the island passed it (a string for JSON, FormData for multipart). */
  body: BodyInit | null | undefined;
  /** The JSON body, parsed. */
  json<T = Record<string, unknown>>(): T;
  signal?: AbortSignal | null;
}

/** How a route answers one call: a fresh Response each time, or an Error to reject with. */
export type Reply = (call: FetchCall) => Response | Error | Promise<Response | Error>;

export const reply = {
  json:
    (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
    () =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } }),
  /** A JSON content type whose body is not JSON (a truncated answer, a proxy's page). */
  malformed:
    (status = 200): Reply =>
    () =>
      new Response('{"ok": tru', { status, headers: { "content-type": "application/json" } }),
  /** What fetch rejects with when the network is down. */
  networkError: (): Reply => () => new TypeError("Failed to fetch"),
  /** What fetch rejects with when its signal aborts (a timeout or a canceled request). */
  aborted: (): Reply => () => new DOMException("The operation was aborted.", "AbortError"),
  /** Bytes with a content type of its own (CSV). */
  text:
    (status: number, body: string, headers: Record<string, string> = {}): Reply =>
    () =>
      new Response(body, { status, headers }),
};

interface Route {
  method: string;
  path: string | RegExp;
  reply: Reply;
}

export function mockFetch() {
  const routes: Route[] = [];
  const calls: FetchCall[] = [];
  const unexpected: string[] = [];
  let gate: Promise<void> | null = null;
  let open = () => {};

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.origin);
    const method = (init.method ?? "GET").toUpperCase();
    const call: FetchCall = {
      method,
      url,
      headers: new Headers(init.headers),
      body: init.body,
      json: () => JSON.parse(String(init.body)),
      signal: init.signal,
    };
    calls.push(call);
    if (gate) await gate;
    const route = routes.findLast(
      (r) => r.method === method && (typeof r.path === "string" ? r.path === url.pathname : r.path.test(url.pathname)),
    );
    if (!route) {
      unexpected.push(`${method} ${url.pathname}${url.search}`);
      throw new Error(`unexpected fetch: ${method} ${url}`);
    }
    const out = await route.reply(call);
    if (out instanceof Error) throw out;
    return out;
  });
  vi.stubGlobal("fetch", fetch);

  return {
    calls,
    /** Requests no route answered (should stay empty). */
    unexpected,
    /** Answers `method path` with `reply` (the latest matching route wins). */
    on(method: string, path: string | RegExp, answer: Reply) {
      routes.push({ method, path, reply: answer });
      return this;
    },
    /** Calls to `path` (and `method`, when given). */
    to(path: string, method?: string) {
      return calls.filter((c) => c.url.pathname === path && (!method || c.method === method));
    },
    /** Holds every answer from now on until the returned function is called. */
    hold(): () => void {
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}

export type FetchMock = ReturnType<typeof mockFetch>;
