/**
 * What a page reads after a no-JS form post was redirected to it (post/redirect/get, see
 * netlify/lib/form-flash.ts): the form flash named by `?form=`, only when it was stored for
 * this very path, or the outage a `?problem=unavailable` reports. Anything else (no id, an
 * unknown or expired one, another page's) is no flash: the page renders plainly.
 */
import { FLASH_PARAM, PROBLEM_PARAM, type Flash } from "../../../src/lib/schemas/flash.ts";
import { STORE_UNAVAILABLE } from "../http.ts";
import { getStore, type Store } from "../store/index.ts";

export type { Flash };

/** The outage line when the flash itself could not be stored or read. */
const UNAVAILABLE: Flash = { path: "", status: 503, values: {}, errors: {}, problem: STORE_UNAVAILABLE };

/** The flash for the page at `url`, or null. */
export async function readFlash(url: URL, store: () => Store = getStore): Promise<Flash | null> {
  if (url.searchParams.get(PROBLEM_PARAM) === "unavailable") return { ...UNAVAILABLE, path: url.pathname };
  const id = url.searchParams.get(FLASH_PARAM);
  if (!id) return null;
  let flash: Flash | null;
  try {
    flash = await store().flashes.get(id);
  } catch (error) {
    console.error(`[flash] could not read a flash (${error instanceof Error ? error.name : typeof error})`);
    return { ...UNAVAILABLE, path: url.pathname };
  }
  return flash && flash.path === url.pathname ? flash : null;
}
