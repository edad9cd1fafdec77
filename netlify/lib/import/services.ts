/**
 * The import's services column: names from the directory's services (PRO_SERVICES in
 * src/lib/options.ts), separated by ";", any case. A name the directory does not offer refuses
 * the row: a listing under a made-up service would match no search.
 */
import { PRO_SERVICES, type ProService } from "../../../src/lib/options.ts";

export type ImportServices = { ok: true; services: ProService[] } | { ok: false; reason: string };

const KNOWN = new Map<string, ProService>(PRO_SERVICES.map((s) => [fold(s.value), s.value]));

function fold(name: string): string {
  return name.toLowerCase().replace(/\s+/g, " ").trim();
}

/** "tree removal; Stump Grinding" -> ["Tree Removal", "Stump Grinding"], in the file's order, each once. */
export function parseImportServices(text: string): ImportServices {
  const names = text
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return { ok: false, reason: "services are missing" };
  const services: ProService[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const known = KNOWN.get(fold(name));
    if (!known) unknown.push(name);
    else if (!services.includes(known)) services.push(known);
  }
  if (unknown.length) {
    const offered = PRO_SERVICES.map((s) => s.value).join(", ");
    const what = unknown.map((u) => `"${u}"`).join(", ");
    return {
      ok: false,
      reason: `unknown service${unknown.length > 1 ? "s" : ""} ${what} (the directory's services: ${offered})`,
    };
  }
  return { ok: true, services };
}
