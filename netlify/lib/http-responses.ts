/**
 * What every API answer is made of: the headers each one carries, JSON and HTML bodies,
 * and the error a handler throws to answer with a status (http.ts turns it into one).
 */

/** Headers on every API answer: personal data must never sit in a shared cache, and
 * browsers must not second-guess the declared type of an echoed body. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * The security headers netlify.toml gives every static page, for the local server's own
 * plain-text refusals (Netlify applies `[[headers]]` to files only). A test keeps these equal
 * to netlify.toml's.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(self), payment=()",
  "x-frame-options": "DENY",
};

/** An error's class for a log line; its message can quote the visitor's input. */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : typeof error);

/**
 * A bug's log line: the error class and where it was thrown, not its message, which can
 * quote the visitor's input (validation libraries and JSON errors do).
 */
export function bugReport(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 5)
    .map((l) => l.trim());
  return [error.name, ...frames].join("\n  ");
}

/**
 * A failure with a status and a public message, thrown anywhere in a handler; the endpoint
 * answers it as `{ error: message, ...extra }` (or its error page) with these headers.
 */
export class HttpError extends Error {
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
  constructor(
    readonly status: number,
    message: string,
    options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...BASE_HEADERS, ...headers },
  });
}

/** JSON error body `{ error, ...extra }`: every 4xx/5xx is readable by a JSON client. */
export function jsonError(
  status: number,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ error, ...extra }, status, headers);
}
