/**
 * Post/redirect/get for the functions that take a page's form posts without JavaScript: the
 * answer is always `303 See Other` to a page, so a reload never posts twice. What the page
 * must show (the values, the field messages, the problem line, a notice) travels as a form
 * flash (src/lib/schemas/flash.ts) stored for a few minutes under a random id in `?form=`.
 */
import { FLASH_PARAM, PROBLEM_PARAM, type FlashInput } from "../../src/lib/schemas/flash.ts";
import { BASE_HEADERS, errorName } from "./http-responses.ts";
import type { Store } from "./store/index.ts";

/** 303 to a same-site path (the page after a post). */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  if (!location.startsWith("/") || location.startsWith("//")) throw new Error("seeOther: a same-site path only");
  return new Response(null, { status: 303, headers: { ...BASE_HEADERS, location, ...headers } });
}

/** `path` with one more query parameter (and a fragment: where the page should open). */
export function withParam(path: string, name: string, value: string, hash = ""): string {
  const url = new URL(path, "http://x");
  url.searchParams.set(name, value);
  if (hash) url.hash = hash;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Stores `flash` and answers 303 to its page (`flash.path`, plus `?form=<id>`). When the store
 * cannot keep it (an outage), the page is told so instead (`?problem=unavailable`: it answers
 * 503 with its own form empty), since the values have nowhere to wait. `hash` is the element
 * the page should open at ("chat-latest"); `at` the page's address when it has a query of its
 * own (a list's `?page=2`), its path being `flash.path`.
 */
export async function redirectWithFlash(
  store: Store | null,
  flash: FlashInput,
  headers: Record<string, string> = {},
  hash = "",
  at: string = flash.path,
): Promise<Response> {
  if (store) {
    try {
      const id = await store.flashes.save(flash);
      return seeOther(withParam(at, FLASH_PARAM, id, hash), headers);
    } catch (error) {
      console.error(`[flash] could not store a flash for ${flash.path} (${errorName(error)})`);
    }
  }
  return seeOther(withParam(at, PROBLEM_PARAM, "unavailable", hash), headers);
}
