/**
 * The admin island's calls: the operator token rides as a bearer header (never a cookie, so
 * no other page can send it), and failures throw the shared ApiError (its message reads
 * "status: body"). The token lives in sessionStorage: it is gone with the tab.
 */
import { ApiError, throwIfResNotOk } from "../../lib/api.ts";
import { ADMIN_TOKEN_STORAGE_KEY } from "../../lib/admin.ts";
import { DEFAULT_TIME_ZONE } from "../../lib/hours.ts";

export function savedToken(): string {
  try {
    return sessionStorage.getItem(ADMIN_TOKEN_STORAGE_KEY) ?? "";
  } catch {
    return "";
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(ADMIN_TOKEN_STORAGE_KEY, token);
    else sessionStorage.removeItem(ADMIN_TOKEN_STORAGE_KEY);
  } catch {
    // Private modes can refuse storage; the session then lasts until a reload.
  }
}

export async function adminFetch(
  token: string,
  path: string,
  init: { method?: string; body?: unknown; accept?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const hasBody = init.body !== undefined;
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: {
      Accept: init.accept ?? "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(hasBody ? { "Content-Type": "application/json" } : {}),
    },
    body: hasBody ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
    signal: init.signal,
  });
  await throwIfResNotOk(res);
  return res;
}

/** A multipart upload (FormData: the browser sets the boundary) answered with JSON. */
export async function adminUpload<T>(token: string, path: string, form: FormData): Promise<T> {
  const res = await fetch(path, {
    method: "POST",
    headers: { Accept: "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: form,
    credentials: "same-origin",
    cache: "no-store",
  });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

export async function adminJson<T>(
  token: string,
  path: string,
  init: Parameters<typeof adminFetch>[2] = {},
): Promise<T> {
  return (await (await adminFetch(token, path, init)).json()) as T;
}

/** The `error` text of a failed admin call, for an inline message. */
export function problem(error: unknown): string {
  if (error instanceof ApiError) return error.json<{ error?: string }>()?.error ?? error.message;
  return "The server could not be reached. Check the connection and try again.";
}

export const isAuthError = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 429);

const IN_ZONE: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * "2 Jan 2025, 14:05" in the operator's locale and time zone; with `timeZone` (a lead's own,
 * the job's), "Jan 2, 2025, 3:05 PM EST" in that zone with its name, as the homeowner's and
 * the pro's pages and messages say it.
 */
export function formatWhen(iso: string | undefined, timeZone?: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (!timeZone) return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  try {
    return new Intl.DateTimeFormat("en-US", { ...IN_ZONE, timeZone }).format(date);
  } catch {
    // A zone this browser does not know: the site's own, still labeled.
    return new Intl.DateTimeFormat("en-US", { ...IN_ZONE, timeZone: DEFAULT_TIME_ZONE }).format(date);
  }
}
