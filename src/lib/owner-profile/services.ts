/** The profile's services: which the form offers, and when two lists name the same ones. */
import { PRO_SERVICES } from "../options.ts";

/** How two service names are compared: "tree planting " and "Tree Planting" are one service. */
export const serviceKey = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** Each service once (first spelling kept, trimmed), by serviceKey. */
export function dedupeServices(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) {
    const key = serviceKey(name);
    if (key && !seen.has(key)) seen.set(key, name.trim().replace(/\s+/g, " "));
  }
  return [...seen.values()];
}

/** The same services, whatever their order or spelling (then the stored list is kept as it is). */
export function sameServices(a: readonly string[], b: readonly string[]): boolean {
  const keys = (l: readonly string[]) => [...new Set(l.map(serviceKey))].sort().join("\n");
  return keys(a) === keys(b);
}

/** The service names the form offers: the site's own, then any others the listing has, each once. */
export function serviceChoices(current: readonly string[]): string[] {
  return dedupeServices([...PRO_SERVICES.map((s) => s.label as string), ...current]);
}
