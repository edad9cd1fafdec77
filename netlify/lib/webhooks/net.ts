/**
 * Where a webhook may go, and the one request that goes there (docs/webhooks.md, "Where
 * webhooks may go"). Server-side request forgery is the risk: an owner (or an API key's
 * holder) names a URL, and our server posts to it. So:
 *   - https only; no user name or password in the URL;
 *   - the host name is resolved and EVERY address it resolves to must be public: no private,
 *     loopback, link-local, carrier-grade NAT, multicast, reserved or documentation range, no
 *     cloud metadata address (169.254.169.254 and fd00:ec2::254 are link-local / unique-local);
 *   - the connection goes to the address that was checked (the request's own DNS lookup is
 *     replaced), so a name that resolves elsewhere a moment later (DNS rebinding) changes nothing;
 *   - redirects are never followed (a 3xx is a failed attempt), and the receiver has
 *     WEBHOOK_TIMEOUT_MS to answer; its body is read up to a few KB and never kept.
 * Tests need a receiver on 127.0.0.1: `allowLoopback` lets loopback (and plain http to it)
 * through, and nothing else; it is a code seam no setting reaches, and it refuses to be on
 * outside vitest or on Netlify.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { WEBHOOK_MESSAGES, WEBHOOK_TIMEOUT_MS } from "../../../src/lib/webhooks.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The network seams; production uses the defaults. */
export interface WebhookNet {
  /** Tests only: a receiver on 127.0.0.1 / ::1 (over http too). Refused outside vitest and on Netlify. */
  allowLoopback?: boolean;
  /** Host name -> addresses (default: the system resolver, every address). */
  resolve?: Resolver;
  /** Default WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
}

const defaultResolve: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Every range a webhook may not reach (IANA special-purpose registries, and the cloud metadata addresses). */
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  FORBIDDEN.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  FORBIDDEN.addSubnet(net, bits, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 (64:ff9b::) IPv6 address. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

function isLoopback(address: string): boolean {
  const v4 = isIP(address) === 6 ? embeddedV4(address) : address;
  return v4 ? LOOPBACK.check(v4, "ipv4") : LOOPBACK.check(address, "ipv6");
}

function checkTestSeam(net: WebhookNet): boolean {
  if (!net.allowLoopback) return false;
  // A test seam only: on Netlify or outside vitest it is a bug, and nothing is sent.
  if (process.env.NETLIFY === "true" || !process.env.VITEST)
    throw new Error("allowLoopback is for tests only and is never on in production");
  return true;
}

/** Whether an address is one a webhook may reach. */
export function isPublicAddress(address: string, net: WebhookNet = {}): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (checkTestSeam(net) && isLoopback(address)) return true;
  const v4 = family === 6 ? embeddedV4(address) : address;
  return v4 ? !FORBIDDEN.check(v4, "ipv4") : !FORBIDDEN.check(address, "ipv6");
}

/** A URL refused, with the message the owner (or the API caller) reads. */
export class WebhookUrlError extends Error {
  override name = "WebhookUrlError";
}

/** The parsed URL and the checked address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

/**
 * Checks a webhook URL the way a send does: https, no credentials, and every address its host
 * resolves to is public. Throws WebhookUrlError with a message for a person.
 */
export async function checkWebhookUrl(raw: string, net: WebhookNet = {}): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError(WEBHOOK_MESSAGES.url);
  }
  const testing = checkTestSeam(net);
  if (url.protocol !== "https:" && !(testing && url.protocol === "http:"))
    throw new WebhookUrlError(WEBHOOK_MESSAGES.https);
  if (url.username || url.password) throw new WebhookUrlError(WEBHOOK_MESSAGES.credentials);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (net.resolve ?? defaultResolve)(host);
    } catch {
      throw new WebhookUrlError(WEBHOOK_MESSAGES.unresolved);
    }
  }
  if (addresses.length === 0) throw new WebhookUrlError(WEBHOOK_MESSAGES.unresolved);
  const bad = addresses.find((a) => !isPublicAddress(a.address, net));
  if (bad) throw new WebhookUrlError(WEBHOOK_MESSAGES.forbidden(bad.address));
  // Plain http only to a test's own receiver.
  if (url.protocol === "http:" && !addresses.every((a) => isLoopback(a.address)))
    throw new WebhookUrlError(WEBHOOK_MESSAGES.https);
  return { url, address: addresses[0]! };
}

/** What the receiver answered. */
export interface PostResult {
  status: number;
}

/** A failure before any answer (refused address, timeout, connection), worded for the log. */
export class WebhookSendError extends Error {
  override name = "WebhookSendError";
}

/** Bytes of a receiver's answer read before the connection is closed (nothing of it is kept). */
const MAX_ANSWER_BYTES = 8 * 1024;

/**
 * Posts `body` with `headers` to a checked URL, connected to the checked address only (the
 * request's own lookup answers with it). Never follows a redirect. Resolves with the status;
 * rejects with WebhookUrlError (refused target) or WebhookSendError (no answer).
 */
export async function postWebhook(
  raw: string,
  body: string,
  headers: Record<string, string>,
  net: WebhookNet = {},
  timeoutMs = net.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
): Promise<PostResult> {
  // The timeout covers the name's resolution too: a slow resolver cannot outlast the run.
  const startedAt = Date.now();
  let resolveTimer: ReturnType<typeof setTimeout> | undefined;
  const { url, address } = await Promise.race([
    checkWebhookUrl(raw, net),
    new Promise<never>((_, reject) => {
      resolveTimer = setTimeout(
        () => reject(new WebhookSendError(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(resolveTimer));
  const left = Math.max(1, timeoutMs - (Date.now() - startedAt));
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    } else callback(null, address.address, address.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = send(
      url,
      {
        method: "POST",
        lookup: pinned,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        // A fresh connection each time: a pooled one could outlive the address check.
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => finish(() => resolve({ status: res.statusCode ?? 0 }));
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(() => reject(new WebhookSendError(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    }, left);
    req.on("error", (error: NodeJS.ErrnoException) =>
      finish(() => reject(new WebhookSendError(`could not connect (${error.code ?? error.name})`))),
    );
    req.end(body);
  });
}
