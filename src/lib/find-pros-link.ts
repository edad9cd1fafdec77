/**
 * Links into /find-a-tree-service's "Get Multiple Quotes Fast" form with the place (and the
 * service) already filled in, for the directory's empty search (docs/directory.md, "No dead
 * ends"): `/find-a-tree-service?location=78664&service=Tree+Removal#get-quotes`.
 *
 * The page is prerendered, so the prefill is its script's (`prefillFindPros`), which fills
 * both the hero's directory search and the quote form before the form island starts; the
 * island keeps what its fields hold. It never overwrites what is already there (typed, or
 * restored by the browser on Back). Without JavaScript the link still lands on the form.
 */
import { PRO_SERVICES } from "./options.ts";

export const FIND_PROS_PATH = "/find-a-tree-service";
/** The quote form's section on that page. */
export const FIND_PROS_FORM_ANCHOR = "get-quotes";
/** Longest place carried in the link (the form's own limit is checked when it is sent). */
const MAX_PLACE = 100;

export interface FindProsPrefill {
  /** The place as typed ("78664", "Katy, TX"); "" for none. */
  location: string;
  /** A PRO_SERVICES value; "" for none. */
  service: string;
}

function serviceOf(input: string | null | undefined): string {
  const needle = (input ?? "").trim().toLowerCase();
  return PRO_SERVICES.find((s) => s.value.toLowerCase() === needle || s.label.toLowerCase() === needle)?.value ?? "";
}

function placeOf(input: string | null | undefined): string {
  return (input ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_PLACE).trim();
}

/** The link to the quote form for a place and service (either may be empty). */
export function findProsUrl(prefill: Partial<FindProsPrefill> = {}): string {
  const params = new URLSearchParams();
  const location = placeOf(prefill.location);
  const service = serviceOf(prefill.service);
  if (location) params.set("location", location);
  if (service) params.set("service", service);
  const query = params.toString();
  return `${FIND_PROS_PATH}${query ? `?${query}` : ""}#${FIND_PROS_FORM_ANCHOR}`;
}

/** What a page URL's query asks to prefill (`location`, or `near` as the directory names it; `service`). */
export function readFindProsPrefill(query: string | URLSearchParams): FindProsPrefill {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  return {
    location: placeOf(params.get("location") ?? params.get("near")),
    service: serviceOf(params.get("service") ?? params.get("serviceType")),
  };
}

/** Sets an empty text box or an unchosen select to `value`; anything already filled in stays. */
function fill(root: ParentNode, selector: string, value: string): void {
  if (!value) return;
  const el = root.querySelector(selector);
  if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.value === "") el.value = value;
}

/**
 * Fills /find-a-tree-service's two forms from its URL: the quote form's Location and Service
 * Type, and the hero's "ZIP code or city" and Service (the directory search). Returns what it read.
 */
export function prefillFindPros(root: ParentNode, query: string | URLSearchParams): FindProsPrefill {
  const prefill = readFindProsPrefill(query);
  fill(root, '#find-pros-form [name="location"]', prefill.location);
  fill(root, '#find-pros-form [name="serviceType"]', prefill.service);
  fill(root, '#pro-search [name="near"]', prefill.location);
  fill(root, '#pro-search [name="service"]', prefill.service);
  return prefill;
}
