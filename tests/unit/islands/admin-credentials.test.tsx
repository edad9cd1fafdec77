// @vitest-environment happy-dom
/**
 * The operator's credentials queue (src/islands/admin/CredentialsPanel.tsx) against a mocked
 * /api/admin/credentials: an empty queue, a business with what its owner stated and the
 * state's register, Check and Reject with the note, a business that leaves the queue or
 * stays with what is left, and the failures (a refusal, a lost session, a failed load).
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CredentialsPanel } from "../../../src/islands/admin/CredentialsPanel.tsx";
import type { AdminCredentialItem, AdminCredentialsReply } from "../../../src/lib/credentials/queue.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";
const WAITING = Date.parse("2026-11-27T15:00:00Z");
const CHECK = { checkedAt: "2026-11-28T16:00:00.000Z" };

const md = (over: Partial<AdminCredentialItem> = {}): AdminCredentialItem => ({
  businessId: "md-1",
  name: "Chesapeake Tree",
  slug: "chesapeake-tree",
  state: "MD",
  timeZone: "America/New_York",
  credentials: {
    licence: { state: "MD", type: "LTE", number: "1234" },
    insurance: { carrier: "Acme Mutual", coverUsd: 1_000_000, expiresOn: "2099-06-30" },
  },
  waitingSince: WAITING,
  ...over,
});

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
});

function queue(data: AdminCredentialItem[]) {
  const body: AdminCredentialsReply = { data, pending: data.length };
  api.on("GET", "/api/admin/credentials", reply.json(200, body));
}

const show = (onAuthError = vi.fn()) => {
  render(<CredentialsPanel token={TOKEN} refreshKey={0} onAuthError={onAuthError} />);
  return onAuthError;
};
const rows = () => within(screen.getByRole("list", { name: "Waiting for a check, longest first" }));

describe("admin: credentials", () => {
  it("shows Loading again while a refresh reads the queue", async () => {
    queue([md()]);
    const { rerender } = render(<CredentialsPanel token={TOKEN} refreshKey={0} onAuthError={vi.fn()} />);
    await screen.findByRole("link", { name: "Chesapeake Tree" });
    expect(screen.queryByText("Loading...")).toBeNull();
    const release = api.hold();
    rerender(<CredentialsPanel token={TOKEN} refreshKey={1} onAuthError={vi.fn()} />);
    expect(await screen.findByText("Loading...")).toBeTruthy();
    // The list it had stays while the new one is on its way.
    expect(screen.getByRole("link", { name: "Chesapeake Tree" })).toBeTruthy();
    release();
    await waitFor(() => expect(screen.queryByText("Loading...")).toBeNull());
    expect(api.to("/api/admin/credentials")).toHaveLength(2);
  });

  it("an empty queue says so", async () => {
    queue([]);
    show();
    expect(await screen.findByText("Nothing waits for a check.")).toBeTruthy();
    expect(api.to("/api/admin/credentials")[0]!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("shows what the owner stated, its status and the state's register", async () => {
    queue([md()]);
    show();
    const row = await screen.findByRole("listitem");
    expect(within(row).getByRole("link", { name: "Chesapeake Tree" }).getAttribute("href")).toBe(
      "/directory/chesapeake-tree",
    );
    expect(within(row).getByText("MD LTE #1234: Maryland Licensed Tree Expert (LTE)")).toBeTruthy();
    expect(within(row).getAllByText("Waiting for Treeline's check")).toHaveLength(2);
    const register = within(row).getByRole("link", { name: /Maryland DNR Forest Service register/ });
    expect(register.getAttribute("href")).toBe("https://dnr.maryland.gov/forests/Pages/programapps/newtreeexpert.aspx");
    expect(within(row).getByText(/\$1,000,000 general liability, Acme Mutual/)).toBeTruthy();
    expect(within(row).getByText(/last day Jun 30, 2099/)).toBeTruthy();
  });

  it("the note is a bordered admin input, before the buttons that send it", async () => {
    queue([md()]);
    show();
    const row = await screen.findByRole("listitem");
    const note = within(row).getByLabelText(/^Note/);
    // "field" is the admin's bordered input (LeadFilters, LeadDetail); "input" styles nothing.
    expect(note.className.split(" ")).toContain("field");
    const buttons = within(row).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual([
      "Check license",
      "Reject license",
      "Check insurance",
      "Reject insurance",
    ]);
    for (const button of buttons)
      expect(note.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("a check late in the business's evening: the card names the badge's date with its zone", async () => {
    // 06:24 UTC on Nov 28 is 10:24 pm on Nov 27 in Pasadena, where the public badge says Nov 27.
    queue([
      md({
        state: "CA",
        timeZone: "America/Los_Angeles",
        credentials: {
          licence: { state: "CA", type: "C-49", number: "1012345", check: { checkedAt: "2026-11-28T06:24:00.000Z" } },
          insurance: md().credentials.insurance,
        },
      }),
    ]);
    show();
    const row = await screen.findByRole("listitem");
    expect(within(row).getByText("Checked on Nov 27, 2026, 10:24 PM PST (the business's time)")).toBeTruthy();
  });

  it("Check sends the decision and the note; a business with insurance still to check stays, without licence buttons", async () => {
    queue([md()]);
    const after = md({ credentials: { ...md().credentials, licence: { ...md().credentials.licence!, check: CHECK } } });
    api.on("PATCH", "/api/admin/credentials/md-1", reply.json(200, { data: after }));
    show();
    await screen.findByRole("listitem");
    await user.type(screen.getByLabelText(/^Note/), "MD DNR LTE register");
    await user.click(screen.getByRole("button", { name: "Check license" }));
    expect(await screen.findByRole("status")).toHaveProperty("textContent", "Chesapeake Tree: license checked.");
    expect(api.to("/api/admin/credentials/md-1", "PATCH")[0]!.json()).toEqual({
      licence: "checked",
      note: "MD DNR LTE register",
      seen: { licence: "MD|LTE|1234" },
    });
    expect(rows().getByText("Checked on Nov 28, 2026, 11:00 AM EST (the business's time)")).toBeTruthy();
    expect(rows().queryByRole("button", { name: "Check license" })).toBeNull();
    expect(rows().getByRole("button", { name: "Check insurance" })).toBeTruthy();
  });

  it("Reject removes the business from the list when nothing is left to check", async () => {
    queue([md({ credentials: { insurance: md().credentials.insurance } })]);
    api.on(
      "PATCH",
      "/api/admin/credentials/md-1",
      reply.json(200, { data: md({ credentials: {}, waitingSince: null }) }),
    );
    show();
    await screen.findByRole("listitem");
    expect(screen.getByText("None stated")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Reject insurance" }));
    expect(await screen.findByText("Chesapeake Tree: insurance rejected.")).toBeTruthy();
    expect(api.to("/api/admin/credentials/md-1", "PATCH")[0]!.json()).toEqual({
      insurance: "rejected",
      seen: { insurance: "Acme Mutual|1000000|2099-06-30" },
    });
    await waitFor(() => expect(screen.queryByRole("listitem")).toBeNull());
  });

  it("a refusal is said and the row stays as it was", async () => {
    queue([md()]);
    api.on("PATCH", "/api/admin/credentials/md-1", reply.json(409, { error: "This business states no licence." }));
    show();
    await screen.findByRole("listitem");
    await user.click(screen.getByRole("button", { name: "Check license" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This business states no licence.");
    expect(rows().getByRole("button", { name: "Check license" })).toBeTruthy();
  });

  it("a lost session signs the operator out", async () => {
    api.on("GET", "/api/admin/credentials", reply.json(401, { error: "Sign in" }));
    const onAuthError = show();
    await waitFor(() => expect(onAuthError).toHaveBeenCalled());
  });

  it("a failed load is said", async () => {
    api.on("GET", "/api/admin/credentials", reply.networkError());
    show();
    expect((await screen.findByRole("alert")).textContent).toMatch(/could not be reached/);
    expect(screen.queryByText("Nothing waits for a check.")).toBeNull();
  });
});
