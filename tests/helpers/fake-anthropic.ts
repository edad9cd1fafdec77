/**
 * A stand-in for the Anthropic Messages API on 127.0.0.1, so the chat suites exercise the
 * real SDK (request shape, auth headers, error classes, timeouts) without the network.
 * Tests queue what the next calls answer: text, a tool_use turn, an HTTP error or a slow
 * reply; every request is recorded with its headers and parsed body.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_API_KEY = "sk-ant-test-fake";

export type FakeStep =
  /** An end_turn answer with this text. */
  | { text: string; delayMs?: number; usage?: { input_tokens: number; output_tokens: number } }
  /** A tool_use turn (optionally with a preamble text block). */
  | { toolUse: { name: string; input: unknown; id?: string }[]; text?: string; delayMs?: number }
  /** An HTTP error in the API's error shape. */
  | { status: number; errorType?: string; delayMs?: number }
  /** A refusal. */
  | { refusal: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    messages: { role: string; content: unknown }[];
    tools?: { name: string }[];
    tool_choice?: { type: string };
    [key: string]: unknown;
  };
}

export interface FakeAnthropic {
  /** Base URL for the SDK (`ANTHROPIC_BASE_URL`). */
  url: string;
  requests: RecordedRequest[];
  /** Queues answers for the next calls, in order. With the queue empty, calls get "OK from the fake.". */
  queue(...steps: FakeStep[]): void;
  reset(): void;
  close(): Promise<void>;
}

const authorized = (headers: IncomingMessage["headers"]) =>
  headers["x-api-key"] === FAKE_API_KEY || headers.authorization === `Bearer ${FAKE_API_KEY}`;

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  let steps: FakeStep[] = [];
  let n = 0;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${n}` });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string) =>
      send(status, { type: "error", error: { type, message } });

    if (!authorized(req.headers)) return error(401, "authentication_error", "invalid x-api-key");
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/messages")
      return error(404, "not_found_error", "Not found");
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(raw);
    } catch {
      return error(400, "invalid_request_error", "invalid JSON");
    }
    requests.push({ method: req.method, path: req.url, headers: req.headers, body });
    n += 1;

    const step: FakeStep = steps.shift() ?? { text: "OK from the fake." };
    if ("delayMs" in step && step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if ("status" in step)
      return error(
        step.status,
        step.errorType ?? (step.status >= 500 ? "api_error" : "invalid_request_error"),
        "fake failure",
      );

    const usage =
      "usage" in step && step.usage ? step.usage : { input_tokens: Math.ceil(raw.length / 4), output_tokens: 40 };
    const base = {
      id: `msg_fake_${n}`,
      type: "message",
      role: "assistant",
      model: body.model,
      stop_sequence: null,
      usage,
    };
    if ("refusal" in step) return send(200, { ...base, content: [], stop_reason: "refusal" });
    if ("toolUse" in step) {
      const content = [
        ...(step.text ? [{ type: "text", text: step.text }] : []),
        ...step.toolUse.map((t, i) => ({
          type: "tool_use",
          id: t.id ?? `toolu_fake_${n}_${i}`,
          name: t.name,
          input: t.input,
        })),
      ];
      return send(200, { ...base, content, stop_reason: "tool_use" });
    }
    return send(200, { ...base, content: [{ type: "text", text: step.text }], stop_reason: "end_turn" });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue: (...more) => {
      steps.push(...more);
    },
    reset: () => {
      steps = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
