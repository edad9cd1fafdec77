/**
 * Estimates inside a declared storm (in process, real Redis): an emergency quote for a ZIP in
 * a declared California area keeps the pre-storm range, states Penal Code 396's 10% rule and
 * carries no storm surcharge, in the JSON reply, the stored lead and the no-JS confirmation
 * page; the same quote outside the area (or before the storm) says nothing of storms.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import { QUOTE_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { receivedOf } from "../../../netlify/lib/page-data/received.ts";
import { declareStorm } from "../../../netlify/lib/storms.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { estimate } from "../../../src/lib/estimate.ts";
import { receiptOf } from "../../../src/lib/receipt.ts";
import type { StormPricing } from "../../../src/lib/storm.ts";
import { QuoteConfirmation } from "../../../src/views/leads/Confirmations.tsx";
import {
  ORIGIN,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  toEntries,
  validQuote,
} from "../../helpers/functions.ts";

const h = await functionsHarness("quote-storm");
afterAll(async () => {
  await h?.teardown();
});

const T0 = Date.parse("2026-10-09T12:00:00Z");
const HOUR = 3_600_000;
const SACRAMENTO = "1315 10th St, Sacramento, CA 95814";
const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: "test-link-secret-0123456789abcdefghijkl" });

interface Reply {
  id: string;
  estimatedCost: string;
  storm?: StormPricing;
}

describe.skipIf(!h)("estimates in a storm", () => {
  const quote = async (address: string, now: number) => {
    const pending: Promise<unknown>[] = [];
    const res = await h!.handler(QUOTE_ENDPOINT, { env, now: () => now })(
      jsonRequest("/api/quote", {
        ...validQuote(),
        address,
        serviceType: "emergency",
        urgency: "emergency",
        _started: humanStarted(),
      }),
      { ...nextIp(), waitUntil: (p) => void pending.push(p) },
    );
    await Promise.all(pending);
    expect(res.status).toBe(201);
    return (await res.json()) as Reply;
  };

  it("an emergency quote in a declared California area: the 10% rule, no surcharge, JSON and no-JS alike", async () => {
    await declareStorm(
      {
        name: "Atmospheric River",
        area: { kind: "zips", zips: ["95814", "95816"] },
        startsAt: new Date(T0).toISOString(),
        declaration: { level: "governor", reference: "Proclamation of a State of Emergency, 2026-10-09" },
      },
      { store: h!.store, now: T0 },
    );
    const pre = estimate("emergency", "emergency");

    const reply = await quote(SACRAMENTO, T0 + HOUR);
    // The range is the pre-storm one: no storm surcharge at all.
    expect(reply.estimatedCost).toBe(pre.text);
    expect(reply.storm).toMatchObject({
      citation: "California Penal Code 396",
      surchargePercent: 0,
      maxIncreasePercent: 10,
    });
    expect(reply.storm!.text).toContain("no storm surcharge");
    expect(reply.storm!.text).toContain("10% above");
    const lead = (await h!.store.leads.get(reply.id))!;
    expect((lead.data as Record<string, unknown>).estimatedCost).toBe(pre.text);
    expect((lead.data as Record<string, unknown>).stormPricing).toBe(reply.storm!.text);
    expect(lead.data as Record<string, unknown>).not.toHaveProperty("stormRule");

    // The no-JS post's confirmation page says the same.
    const res = await h!.handler(QUOTE_ENDPOINT, { env, now: () => T0 + HOUR })(
      formRequest(
        "/api/quote",
        toEntries({
          ...validQuote(),
          address: SACRAMENTO,
          serviceType: "emergency",
          urgency: "emergency",
          _started: humanStarted(),
        }),
      ),
      nextIp(),
    );
    expect(res.status).toBe(303);
    const path = new URL(res.headers.get("location")!, ORIGIN).pathname;
    const formLead = (await h!.store.leads.get(path.split("/")[2]!))!;
    const received = receivedOf(formLead, path.replace(/\/received$/, ""), false);
    expect(received.lead).toMatchObject({ kind: "quote", estimate: pre.text, storm: reply.storm!.text });
    const html = renderToStaticMarkup(
      createElement(QuoteConfirmation, {
        estimate: pre.text,
        receipt: receiptOf(reply, "emergency"),
        storm: reply.storm!.text,
      }),
    );
    expect(html).toContain('data-testid="quote-storm-rule"');
    expect(html).toContain("California Penal Code 396");
  });

  it("outside the area, or before the storm, the estimate says nothing of storms", async () => {
    const austin = await quote("100 Congress Ave, Austin, TX 78701", T0 + HOUR);
    expect(austin.storm).toBeUndefined();
    expect(austin.estimatedCost).toBe(estimate("emergency", "emergency").text);
    const before = await quote(SACRAMENTO, T0 - HOUR);
    expect(before.storm).toBeUndefined();
    const lead = (await h!.store.leads.get(before.id))!;
    expect(lead.data as Record<string, unknown>).not.toHaveProperty("stormPricing");
  });
});
