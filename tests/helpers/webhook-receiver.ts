/**
 * A local stand-in for a Slack incoming webhook (or an e-mail provider's API) on 127.0.0.1:
 * records every JSON body it receives and answers with the statuses a test queues
 * (default 200). `close()` makes it unreachable, as when the receiver is down.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body as received, byte for byte (what a signature covers). */
  text: string;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:54321/hook */
  url: string;
  calls: ReceivedCall[];
  /** Statuses for the next requests, in order; afterwards 200. */
  respondWith(...statuses: number[]): void;
  /** A status chosen per request (e.g. by recipient), before the queue; undefined falls through. */
  route: ((call: ReceivedCall) => number | undefined) | null;
  /** Sent as Location with every 3xx answer. */
  redirectTo: string | null;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hook"): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const queue: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the test will say what it expected.
      }
      const call = { path: req.url ?? "", headers: req.headers, body, text };
      calls.push(call);
      const status = receiver.route?.(call) ?? queue.shift() ?? 200;
      const location = status >= 300 && status < 400 && receiver.redirectTo ? { location: receiver.redirectTo } : {};
      res.writeHead(status, { "content-type": "text/plain", ...location }).end(status < 300 ? "ok" : "error");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    route: null,
    redirectTo: null,
    url: `http://127.0.0.1:${port}${path}`,
    calls,
    respondWith: (...statuses) => queue.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
