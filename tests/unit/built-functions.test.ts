/**
 * The deploy as Netlify builds it: `npm run build:netlify` runs Netlify's own build
 * (@netlify/build, offline: no account, no site, no network), which runs the build command of
 * netlify.toml and bundles every function into .netlify/functions/, listed with its routes or
 * schedule in manifest.json. This reads that manifest: every netlify/functions/*.mts is
 * bundled, with the routes (path and methods) or the schedule its own `config` declares, on
 * netlify.toml's Node; the on-demand pages' function the Astro adapter writes is there too; the
 * photo function carries sharp's Linux binaries (netlify.toml's included_files); no bundle
 * passes Netlify's size limit.
 *
 * A missing manifest is an error, never a skip: `npm test` runs the Netlify build before
 * vitest, and a developer who runs vitest alone is told to.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Config } from "@netlify/functions";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FUNCTIONS = join(ROOT, "netlify/functions");
const MANIFEST = join(ROOT, ".netlify/functions/manifest.json");
/** Netlify refuses a function whose zip is larger (its deploy log: "larger than the 50MB limit"). */
const MAX_ZIP_BYTES = 50 * 1024 * 1024;

interface ManifestRoute {
  pattern: string;
  methods: string[];
  prefer_static?: boolean;
}
interface ManifestFunction {
  name: string;
  mainFile: string;
  path: string;
  runtime: string;
  runtimeVersion?: string;
  generator?: string;
  routes?: ManifestRoute[];
  excludedRoutes?: { pattern: string }[];
  schedule?: string;
}

function readManifest(): { functions: ManifestFunction[] } {
  if (!existsSync(MANIFEST))
    throw new Error(
      ".netlify/functions/manifest.json is missing: run `npm run build:netlify` first (Netlify's own build, offline; npm test runs it before vitest)",
    );
  return JSON.parse(readFileSync(MANIFEST, "utf8")) as { functions: ManifestFunction[] };
}

const list = <T>(value: T | readonly T[] | undefined): T[] => (value === undefined ? [] : ([value].flat() as T[]));

/** The names of the files inside a zip, from its central directory (no dependency for one listing). */
function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  // End of central directory: its signature within the last 64 KB (+22) of the file.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file}: not a zip`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: broken central directory`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    names.push(zip.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

const sources = readdirSync(FUNCTIONS)
  .filter((f) => f.endsWith(".mts"))
  .sort();

describe("the Netlify build's functions (.netlify/functions/manifest.json)", () => {
  it("bundles every function of netlify/functions, and only those beside the pages' function", () => {
    const { functions } = readManifest();
    const fromSource = functions.filter((f) => relative(ROOT, f.mainFile).startsWith("netlify/functions/"));
    expect(fromSource.map((f) => basename(f.mainFile)).sort()).toEqual(sources);
    for (const f of fromSource) {
      expect(f.name).toBe(basename(f.mainFile, ".mts"));
      expect(f.runtime).toBe("js");
    }
    // Anything else is what the Astro adapter generated: the on-demand pages.
    const generated = functions.filter((f) => !fromSource.includes(f));
    expect(generated.map((f) => f.name)).toEqual(["ssr"]);
    expect(generated[0]!.generator).toMatch(/^@astrojs\/netlify@/);
    expect(generated[0]!.routes?.map((r) => r.pattern)).toContain("/directory/:slug");
  });

  it.each(sources)("%s: the routes or the schedule its config declares", async (file) => {
    const { functions } = readManifest();
    const built = functions.find((f) => f.mainFile.endsWith(`/netlify/functions/${file}`));
    expect(built, `${file} is not in the manifest: run \`npm run build:netlify\` again`).toBeDefined();
    const mod = (await import(pathToFileURL(join(FUNCTIONS, file)).href)) as { config?: Config };
    const config = mod.config ?? {};
    const methods = list(config.method).map((m) => m.toUpperCase());
    const declared = list(config.path).map((pattern) => ({ pattern, methods }));
    expect(
      (built!.routes ?? []).map((r) => ({ pattern: r.pattern, methods: r.methods })),
      "routes (config.path and config.method)",
    ).toEqual(declared);
    expect(
      (built!.excludedRoutes ?? []).map((r) => r.pattern),
      "config.excludedPath",
    ).toEqual(list(config.excludedPath));
    expect(built!.schedule, "config.schedule").toBe(config.schedule);
    // A function is reached by a path or runs on a schedule; one with neither would never run.
    expect(declared.length > 0 || config.schedule !== undefined, `${file} has neither a path nor a schedule`).toBe(
      true,
    );
  });

  it("every bundle is a zip under Netlify's size limit, on netlify.toml's Node", () => {
    const { functions } = readManifest();
    const node = /NODE_VERSION\s*=\s*"(\d+)"/.exec(readFileSync(join(ROOT, "netlify.toml"), "utf8"))?.[1];
    expect(node, "netlify.toml's [build.environment] NODE_VERSION").toBeDefined();
    for (const f of functions) {
      const zip = join(ROOT, ".netlify/functions", `${f.name}.zip`);
      expect(existsSync(zip), `${f.name}.zip`).toBe(true);
      expect(statSync(zip).size, `${f.name}.zip`).toBeLessThan(MAX_ZIP_BYTES);
      expect(f.runtimeVersion, f.name).toBe(`nodejs${node}.x`);
    }
  });

  it("the owner's photo function ships sharp with its Linux binaries (netlify.toml's included_files)", () => {
    readManifest();
    const entries = zipEntries(join(ROOT, ".netlify/functions/owner-photos.zip"));
    for (const needed of [
      "node_modules/sharp/package.json",
      "node_modules/@img/sharp-linux-x64/",
      "node_modules/@img/sharp-libvips-linux-x64/",
    ])
      expect(
        entries.some((e) => e.includes(needed)),
        needed,
      ).toBe(true);
    // sharp's /proc/self/exe read traces the Node binary the build ran on: left out (netlify.toml).
    expect(entries.filter((e) => e.startsWith("node_modules/node/"))).toEqual([]);
    // The public photos' function serves stored files and never loads sharp.
    expect(zipEntries(join(ROOT, ".netlify/functions/business-photo.zip")).some((e) => e.includes("/sharp/"))).toBe(
      false,
    );
  });
});
