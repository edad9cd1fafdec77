// @vitest-environment happy-dom
/**
 * The operator's Import tab (src/islands/admin/ImportPanel.tsx) against a mocked
 * /api/admin/import: Check uploads the file as a dry run and shows the report (rejected rows
 * with their lines and reasons, merged rows, each business and what changes); Apply uploads
 * the same file with apply set and says what was written, or what is left; a file over the
 * limit is refused before it is sent; the server's refusal shows inline; a lost sign-in goes
 * back to the token.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ImportPanel } from "../../../src/islands/admin/ImportPanel.tsx";
import {
  ADMIN_IMPORT_PATH,
  IMPORT_TOO_LARGE,
  IMPORT_UPLOAD_LIMIT,
  type AdminImportReply,
} from "../../../src/lib/admin-import.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import "../../helpers/islands.ts";

const TOKEN = "operator-token-for-tests";

const dryRun: AdminImportReply = {
  applied: false,
  summary: { rows: 4, rejected: 1, merged: 1, new: 1, updated: 1, unchanged: 0, kept: 0, changes: 2 },
  rejected: [{ line: 4, name: "Sawtooth Tree Co", reasons: ["ZIP 99999 does not exist"] }],
  merged: [{ line: 5, into: 2, why: ["phone"] }],
  changes: [
    { kind: "new", lines: [2, 5], id: "imp-1", slug: "tv-boise", name: "Treasure Valley", city: "Boise", state: "ID" },
    {
      kind: "updated",
      lines: [3],
      id: "biz-2",
      slug: "cascade",
      name: "Cascade",
      city: "Portland",
      state: "OR",
      fields: ["hours", "phone"],
    },
  ],
};
const applied = (remaining: number): AdminImportReply => ({
  ...dryRun,
  applied: true,
  summary: { ...dryRun.summary, changes: 2 - remaining },
  remaining,
  failed: [],
});

let api: FetchMock;
let user: UserEvent;
beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
});

function show(onAuthError = vi.fn()) {
  render(<ImportPanel token={TOKEN} refreshKey={0} onAuthError={onAuthError} />);
  return onAuthError;
}
const csvFile = (size?: number) =>
  new File([size ? "x".repeat(size) : "name,phone\nA,1\n"], "businesses.csv", { type: "text/csv" });

describe("ImportPanel", () => {
  it("checks the file as a dry run and shows the report, then applies the same file", async () => {
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, dryRun));
    show();
    const file = csvFile();
    await user.upload(screen.getByLabelText("CSV file"), file);
    await user.click(screen.getByRole("button", { name: "Check file" }));

    const rejected = await screen.findByRole("region", { name: "Rejected rows" });
    expect(within(rejected).getByText(/ZIP 99999 does not exist/).textContent).toContain("Line 4");
    expect(screen.getByText("Line 5 is the same business as line 2 (same phone)")).toBeTruthy();
    const businesses = within(screen.getByRole("region", { name: "Businesses" }));
    expect(businesses.getByRole("link", { name: "Treasure Valley" }).getAttribute("href")).toBe("/directory/tv-boise");
    expect(businesses.getByText("Changes: hours, phone")).toBeTruthy();
    expect(screen.getByText(/4 rows: 1 rejected, 1 merged; 1 new, 1 updated/)).toBeTruthy();

    const [check] = api.to(ADMIN_IMPORT_PATH, "POST");
    expect(check!.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    const sent = check!.body as FormData;
    expect(sent.get("apply")).toBeNull();
    expect((sent.get("file") as File).name).toBe("businesses.csv");

    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, applied(0)));
    await user.click(screen.getByRole("button", { name: "Apply 2 changes" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Applied: 2 changes written. The directory's pages are refreshed.",
    );
    const apply = api.to(ADMIN_IMPORT_PATH, "POST")[1]!.body as FormData;
    expect(apply.get("apply")).toBe("1");
    expect((apply.get("file") as File).name).toBe("businesses.csv");
    expect(screen.queryByRole("button", { name: /^Apply/ })).toBeNull();
  });

  it("says what is left when an apply ran out of time, and applies the rest", async () => {
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, dryRun));
    show();
    await user.upload(screen.getByLabelText("CSV file"), csvFile());
    await user.click(screen.getByRole("button", { name: "Check file" }));
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, applied(1)));
    await user.click(await screen.findByRole("button", { name: "Apply 2 changes" }));
    expect((await screen.findByRole("status")).textContent).toContain(
      "1 change written; 1 not reached in time: apply again to write them.",
    );
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, applied(0)));
    await user.click(screen.getByRole("button", { name: "Apply the rest" }));
    expect(api.to(ADMIN_IMPORT_PATH, "POST")).toHaveLength(3);
  });

  it("offers no apply when nothing would change", async () => {
    const nothing: AdminImportReply = {
      ...dryRun,
      summary: { ...dryRun.summary, new: 0, updated: 0, unchanged: 2, changes: 0 },
      changes: dryRun.changes.map((c) => ({ ...c, kind: "unchanged" as const, fields: undefined })),
    };
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(200, nothing));
    show();
    await user.upload(screen.getByLabelText("CSV file"), csvFile());
    await user.click(screen.getByRole("button", { name: "Check file" }));
    expect(await screen.findByText("Nothing to change: the directory already has this file.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Apply/ })).toBeNull();
  });

  it("refuses a file over the limit before sending it", async () => {
    show();
    await user.upload(screen.getByLabelText("CSV file"), csvFile(IMPORT_UPLOAD_LIMIT + 1));
    await user.click(screen.getByRole("button", { name: "Check file" }));
    expect((await screen.findByRole("alert")).textContent).toBe(IMPORT_TOO_LARGE);
    expect(api.calls).toHaveLength(0);
  });

  it("shows the server's refusal, and signs out on a lost token", async () => {
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(400, { error: 'The header has no "zip" column.' }));
    const onAuthError = show();
    await user.upload(screen.getByLabelText("CSV file"), csvFile());
    await user.click(screen.getByRole("button", { name: "Check file" }));
    expect((await screen.findByRole("alert")).textContent).toBe('The header has no "zip" column.');
    api.on("POST", ADMIN_IMPORT_PATH, reply.json(401, { error: "Sign in with the operator token." }));
    await user.click(screen.getByRole("button", { name: "Check file" }));
    await vi.waitFor(() => expect(onAuthError).toHaveBeenCalled());
  });
});
