// @vitest-environment happy-dom
/**
 * The launch checklist tab (src/islands/admin/SetupPanel.tsx) against a mocked
 * /api/admin/setup: every line with its state in words, its sentence and its facts (times on
 * the operator's clock), the summary of what is not ready, a refresh, and the failures (a lost
 * session, a failed read).
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SetupPanel } from "../../../src/islands/admin/SetupPanel.tsx";
import type { AdminSetupReply, SetupLine } from "../../../src/lib/admin-setup.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const AT = "2026-11-28T21:59:00.000Z";

const LINES: SetupLine[] = [
  {
    id: "store",
    label: "Store",
    state: "ready",
    text: "Upstash Redis takes writes: nothing to do.",
    facts: [{ label: "Store", value: "Upstash Redis over REST at https://eu1-example.upstash.io" }],
  },
  {
    id: "email",
    label: "E-mail",
    state: "not-ready",
    text: "RESEND_API_KEY uses Resend's test sender onboarding@resend.dev, set NOTIFY_EMAIL_FROM to an address on your verified domain.",
    facts: [
      { label: "Sender", value: "Treeline <onboarding@resend.dev>" },
      { label: "Last send", value: "Failed" },
      { label: "When", at: AT },
      { label: "Error", value: "HTTP 403" },
    ],
  },
  {
    id: "schedule:lead-clock",
    label: "Schedule: lead-clock",
    state: "warning",
    text: "No run recorded yet: it runs every minute (on Netlify only on the published deploy); look again after its next run.",
    facts: [{ label: "Runs", value: "every minute" }],
  },
];

let api: FetchMock;

beforeEach(() => {
  api = mockFetch();
});

const checklist = (lines: SetupLine[] = LINES) => {
  const body: AdminSetupReply = { checkedAt: AT, lines };
  api.on("GET", "/api/admin/setup", reply.json(200, body));
};
const show = (onAuthError = vi.fn(), refreshKey = 0) =>
  render(<SetupPanel token={TOKEN} refreshKey={refreshKey} onAuthError={onAuthError} />);
const row = (label: string) => screen.getByRole("heading", { name: label }).closest("li")!;

describe("admin: Setup (launch checklist)", () => {
  it("shows each line with its state in words, what to do, and its facts", async () => {
    checklist();
    show();
    const list = await screen.findByRole("list", { name: "Checklist" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    expect(api.to("/api/admin/setup")[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);

    const email = within(row("E-mail"));
    expect(email.getByText("Not ready")).toBeTruthy();
    expect(
      email.getByText(
        "RESEND_API_KEY uses Resend's test sender onboarding@resend.dev, set NOTIFY_EMAIL_FROM to an address on your verified domain.",
      ),
    ).toBeTruthy();
    expect(email.getByText("Sender").nextElementSibling!.textContent).toBe("Treeline <onboarding@resend.dev>");
    expect(email.getByText("Error").nextElementSibling!.textContent).toBe("HTTP 403");
    // A time is a <time> on the operator's clock, its instant in datetime.
    const when = email.getByText("When").nextElementSibling!.querySelector("time")!;
    expect(when.getAttribute("datetime")).toBe(AT);
    expect(when.textContent).toMatch(/2026/);

    expect(within(row("Store")).getByText("Ready")).toBeTruthy();
    expect(within(row("Schedule: lead-clock")).getByText("Warning")).toBeTruthy();
    expect(screen.getByText(/^1 not ready, 1 warning, checked /)).toBeTruthy();
  });

  it("says so when everything is ready", async () => {
    checklist([LINES[0]!]);
    show();
    expect(await screen.findByText("Everything is ready.")).toBeTruthy();
  });

  it("reads the checklist again on refresh", async () => {
    checklist();
    const { rerender } = show();
    await screen.findByRole("list", { name: "Checklist" });
    rerender(<SetupPanel token={TOKEN} refreshKey={1} onAuthError={vi.fn()} />);
    await waitFor(() => expect(api.to("/api/admin/setup")).toHaveLength(2));
  });

  it("a lost session signs out; a failed read says why", async () => {
    api.on("GET", "/api/admin/setup", reply.json(401, { error: "Sign in with the operator token." }));
    const onAuthError = vi.fn();
    show(onAuthError);
    await waitFor(() => expect(onAuthError).toHaveBeenCalled());

    api.on("GET", "/api/admin/setup", reply.json(503, { error: "The store is unavailable right now." }));
    show();
    expect((await screen.findByRole("alert")).textContent).toBe("The store is unavailable right now.");
  });
});
