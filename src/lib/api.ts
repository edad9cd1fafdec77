/**
 * The one fetch wrapper the islands use: every call sends
 * cookies, a body goes as JSON with a JSON content-type only when there is one, and any
 * non-OK answer throws an ApiError whose message is `${status}: ${body or statusText}`.
 */

export class ApiError extends Error {
  /** HTTP status of the failed response. */
  readonly status: number;
  /** Raw response body (may be empty). */
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  /** The body parsed as JSON, or undefined when it is not JSON. */
  json<T = unknown>(): T | undefined {
    try {
      return JSON.parse(this.body) as T;
    } catch {
      return undefined;
    }
  }

  /** The `{ fields: { name: message } }` of a 400 validation answer, if present. */
  get fields(): Record<string, string> | undefined {
    const fields = this.json<{ fields?: unknown }>()?.fields;
    if (!fields || typeof fields !== "object") return undefined;
    return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === "string"));
  }
}

/** Throws ApiError for a non-OK response (the body is read for the message). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text().catch(() => "");
  throw new ApiError(res.status, res.statusText, body);
}

export interface ApiRequestOptions {
  /** Extra headers, e.g. Idempotency-Key. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Sends a request and returns the OK response (unread: most callers do not read it). Network failures reject with the fetch TypeError as they are.
 */
export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  options: ApiRequestOptions = {},
): Promise<Response> {
  const hasBody = data !== undefined;
  const res = await fetch(url, {
    method,
    headers: {
      ...(hasBody ? { "Content-Type": "application/json" } : {}),
      Accept: "application/json",
      ...options.headers,
    },
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: "include",
    signal: options.signal,
  });
  await throwIfResNotOk(res);
  return res;
}

/**
 * A GET read as JSON. A 401 is an error by default; `on401: "null"`
 * lets a caller treat "not signed in" as no data instead.
 */
export async function apiGet<T>(
  url: string,
  { on401 = "throw", signal }: { on401?: "throw" | "null"; signal?: AbortSignal } = {},
): Promise<T | null> {
  const res = await fetch(url, { credentials: "include", headers: { Accept: "application/json" }, signal });
  if (on401 === "null" && res.status === 401) return null;
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}
