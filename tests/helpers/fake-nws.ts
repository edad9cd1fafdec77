/**
 * A stand-in for the National Weather Service API (api.weather.gov) on 127.0.0.1, so the
 * storm check (netlify/lib/storm-alerts.ts) is tested over real HTTP without the network.
 * Tests set each state's active alerts (or an HTTP error, or a delay); the fake answers
 * `GET /alerts/active?area=XX` with a GeoJSON FeatureCollection as NWS does, refuses a
 * request without a User-Agent (403, as NWS does), and records every request.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One alert's properties (the fields the check reads; NWS sends many more). */
export interface FakeAlert {
  id?: string;
  event: string;
  severity?: "Extreme" | "Severe" | "Moderate" | "Minor" | "Unknown";
  status?: "Actual" | "Exercise" | "Test";
  messageType?: "Alert" | "Update" | "Cancel";
  headline?: string;
  areaDesc?: string;
  sent?: string;
  effective?: string;
  onset?: string | null;
  expires?: string;
  ends?: string | null;
}

type StateAnswer = { alerts: FakeAlert[] } | { status: number } | { delayMs: number; alerts: FakeAlert[] };

export interface FakeNws {
  /** Base URL for NWS_API_URL. */
  url: string;
  requests: { path: string; area: string | null; headers: IncomingMessage["headers"] }[];
  /** What `?area=<state>` answers next (a state not set has no alerts). */
  set(state: string, answer: StateAnswer): void;
  reset(): void;
  close(): Promise<void>;
}

let counter = 0;

/** An alert's feature as NWS writes it. */
function feature(state: string, a: FakeAlert) {
  const id = a.id ?? `https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.fake.${state}.${++counter}`;
  const at = a.sent ?? new Date().toISOString();
  return {
    id,
    type: "Feature",
    geometry: null,
    properties: {
      "@id": id,
      "@type": "wx:Alert",
      id: id.split("/").pop(),
      areaDesc: a.areaDesc ?? `Somewhere, ${state}`,
      geocode: { SAME: [], UGC: [] },
      affectedZones: [],
      sent: at,
      effective: a.effective ?? at,
      onset: a.onset === undefined ? at : a.onset,
      expires: a.expires ?? new Date(Date.parse(at) + 6 * 3_600_000).toISOString(),
      ends: a.ends ?? null,
      status: a.status ?? "Actual",
      messageType: a.messageType ?? "Alert",
      category: "Met",
      severity: a.severity ?? "Severe",
      certainty: "Likely",
      urgency: "Expected",
      event: a.event,
      sender: "w-nws.webmaster@noaa.gov",
      senderName: "NWS Miami FL",
      headline: a.headline ?? `${a.event} issued by NWS`,
      description: "",
      instruction: "",
      response: "Prepare",
    },
  };
}

export async function startFakeNws(): Promise<FakeNws> {
  const requests: FakeNws["requests"] = [];
  let answers = new Map<string, StateAnswer>();

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const area = url.searchParams.get("area");
    requests.push({ path: url.pathname, area, headers: req.headers });
    const send = (status: number, body: unknown, type = "application/geo+json") => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": type });
      res.end(JSON.stringify(body));
    };
    if (!req.headers["user-agent"]) {
      send(403, { title: "Forbidden", detail: "A User-Agent header is required" }, "application/problem+json");
      return;
    }
    if (url.pathname !== "/alerts/active" || !area) {
      send(400, { title: "Bad Request", detail: "Only /alerts/active?area= here" }, "application/problem+json");
      return;
    }
    const answer = answers.get(area) ?? { alerts: [] };
    if ("status" in answer) {
      send(answer.status, { title: "Error", status: answer.status }, "application/problem+json");
      return;
    }
    if ("delayMs" in answer) await new Promise((r) => setTimeout(r, answer.delayMs));
    send(200, {
      "@context": [],
      type: "FeatureCollection",
      features: answer.alerts.map((a) => feature(area, a)),
      title: `Current watches, warnings, and advisories for ${area}`,
      updated: new Date().toISOString(),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    set: (state, answer) => void answers.set(state, answer),
    reset() {
      answers = new Map();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
