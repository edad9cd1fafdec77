/**
 * POST /api/admin/import against a real Redis: the operator's token is required, a check is a
 * dry run (rejects listed, nothing written), apply writes and purges the directory, applying
 * again writes nothing; a request out of time leaves the rest for the next apply; unreadable
 * files, missing files and files over the upload limit are refused with their reason.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminImportHandler } from "../../../netlify/lib/admin/import.ts";
import type { AdminDeps } from "../../../netlify/lib/admin/endpoint.ts";
import {
  ADMIN_IMPORT_PATH,
  IMPORT_NO_FILE,
  IMPORT_TOO_LARGE,
  IMPORT_UPLOAD_LIMIT,
  type AdminImportReply,
} from "../../../src/lib/admin-import.ts";
import { ADMIN_DISABLED } from "../../../src/lib/admin.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import {
  functionsHarness,
  jsonRequest,
  multipartRequest,
  nextIp,
  type FunctionsHarness,
} from "../../helpers/functions.ts";

const TOKEN = "test-admin-token-0123456789";
const EXAMPLE = readFileSync("docs/import-example.csv", "utf8");
const h = await functionsHarness("admin-import");

function upload(
  csv: string | Blob,
  apply = false,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
) {
  const form = new FormData();
  form.set("file", csv instanceof Blob ? csv : new Blob([csv], { type: "text/csv" }), "businesses.csv");
  if (apply) form.set("apply", "1");
  return multipartRequest(ADMIN_IMPORT_PATH, form, headers);
}

describe.skipIf(!h)("POST /api/admin/import", () => {
  let harness: FunctionsHarness;
  let deps: AdminDeps & { purges: string[][] };

  beforeAll(() => {
    harness = h!;
    const purges: string[][] = [];
    deps = {
      store: () => harness.store,
      env: parseEnv({ ADMIN_TOKEN: TOKEN, ADMIN_RATE_LIMIT_PER_MINUTE: "1000" }),
      purge: async (tags) => void purges.push(tags),
      purges,
    };
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it("needs the operator token (and an admin at all), and writes nothing without it", async () => {
    const handler = adminImportHandler(deps);
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[]) {
      const res = await handler(upload(EXAMPLE, true, headers), nextIp());
      expect(res.status).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const disabled = await adminImportHandler({ ...deps, env: parseEnv({}) })(upload(EXAMPLE, true), nextIp());
    expect(disabled.status).toBe(503);
    expect((await disabled.json()).error).toContain(ADMIN_DISABLED);
    expect(await harness.store.businesses.count()).toBe(0);
  });

  it("checks a file without writing, then applies it once", async () => {
    const handler = adminImportHandler(deps);
    const dry = await handler(upload(EXAMPLE), nextIp());
    expect(dry.status).toBe(200);
    expect(dry.headers.get("x-robots-tag")).toContain("noindex");
    const report = (await dry.json()) as AdminImportReply;
    expect(report.applied).toBe(false);
    expect(report.rejected.map((r) => r.line)).toEqual([7, 8, 9]);
    expect(report.rejected[0]).toEqual({ line: 7, name: "Sawtooth Tree Co", reasons: ["ZIP 99999 does not exist"] });
    expect(report.merged).toEqual([{ line: 6, into: 2, why: ["phone", "name and ZIP"] }]);
    expect(report.summary).toMatchObject({ new: 4, updated: 0, changes: 4 });
    expect(report.changes[0]).toEqual({
      kind: "new",
      lines: [2, 6],
      id: expect.stringMatching(/^imp-[0-9a-f]{16}$/),
      slug: "treasure-valley-tree-care-boise",
      name: "Treasure Valley Tree Care",
      city: "Boise",
      state: "ID",
    });
    // The report names businesses; their records stay on the server.
    expect(report.changes[0]).not.toHaveProperty("business");
    expect(await harness.store.businesses.count()).toBe(0);
    expect(deps.purges).toEqual([]);

    const applied = (await (await handler(upload(EXAMPLE, true), nextIp())).json()) as AdminImportReply;
    expect(applied).toMatchObject({ applied: true, remaining: 0, failed: [], summary: { new: 4, changes: 4 } });
    expect(await harness.store.businesses.count()).toBe(4);
    expect(deps.purges).toEqual([["directory"]]);

    const again = (await (await handler(upload(EXAMPLE, true), nextIp())).json()) as AdminImportReply;
    expect(again.summary).toMatchObject({ new: 0, updated: 0, unchanged: 4, changes: 0 });
    expect(deps.purges).toHaveLength(1);
  });

  it("stops writing at its time budget and leaves the rest to the next apply", async () => {
    const rows = ["name,phone,city,state,zip,services,hours"];
    for (let i = 0; i < 3; i++)
      rows.push(`Budget Crew ${i},(303) 555-01${10 + i},Denver,CO,80205,Tree Trimming,by appointment`);
    // A clock that jumps 4 s on every reading: the second write would start past the 6 s budget.
    let clock = 1_000_000;
    const handler = adminImportHandler({ ...deps, now: () => (clock += 4_000) });
    const first = (await (await handler(upload(rows.join("\n"), true), nextIp())).json()) as AdminImportReply;
    expect(first.summary.changes).toBeLessThan(3);
    expect(first.remaining).toBe(3 - first.summary.changes);
    let report = first;
    for (let i = 0; i < 3 && (report.remaining ?? 0) > 0; i++)
      report = (await (await handler(upload(rows.join("\n"), true), nextIp())).json()) as AdminImportReply;
    expect(report.remaining).toBe(0);
    const check = (await (
      await adminImportHandler(deps)(upload(rows.join("\n")), nextIp())
    ).json()) as AdminImportReply;
    expect(check.summary).toMatchObject({ new: 0, unchanged: 3 });
  });

  it("refuses a missing file, an unreadable one and one over the limit, saying why", async () => {
    const handler = adminImportHandler(deps);
    const none = await handler(
      multipartRequest(ADMIN_IMPORT_PATH, new FormData(), { authorization: `Bearer ${TOKEN}` }),
      nextIp(),
    );
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: IMPORT_NO_FILE, fields: { file: IMPORT_NO_FILE } });

    const header = await handler(upload("name,phon\nA,1\n"), nextIp());
    expect(header.status).toBe(400);
    expect((await header.json()).error).toMatch(/Column 2 "phon" is not one the import reads/);

    const binary = await handler(upload(new Blob([Uint8Array.of(0xff, 0xfe, 0xfd)])), nextIp());
    expect(binary.status).toBe(400);

    const big = await handler(upload(new Blob([EXAMPLE, "x".repeat(IMPORT_UPLOAD_LIMIT)])), nextIp());
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: IMPORT_TOO_LARGE });
    expect(big.headers.get("cache-control")).toBe("no-store");

    const json = await handler(
      jsonRequest(ADMIN_IMPORT_PATH, { csv: EXAMPLE }, { authorization: `Bearer ${TOKEN}` }),
      nextIp(),
    );
    expect(json.status).toBe(415);
  });
});
