/**
 * Directory fixtures for the island tests: list businesses as GET /api/businesses returns
 * them, and a small stand-in for that endpoint (search by name, city, paging) to put behind
 * the fetch mock.
 */
import { DIRECTORY_PAGE_SIZE } from "../../src/lib/directory-url.ts";
import { CITIES } from "../../src/lib/options.ts";
import type { ListBusiness, ListPage } from "../../src/lib/directory-list.ts";
import { reply, type Reply } from "./fetch-mock.ts";

const CITY_LABELS = CITIES.map((c) => c.label);

/** Business number `i` (1-based): names are unique, cities rotate through the directory's four. */
export function listBusiness(i: number, fields: Partial<ListBusiness> = {}): ListBusiness {
  const id = `biz-${String(i).padStart(3, "0")}`;
  return {
    id,
    name: `Oak Crew ${i}`,
    slug: `oak-crew-${i}`,
    description: `Tree care number ${i}.`,
    city: CITY_LABELS[i % CITY_LABELS.length]!,
    state: "TX",
    phone: `(512) 555-${String(1000 + i).slice(-4)}`,
    rating: "4.5",
    reviewCount: 10,
    isFeatured: false,
    services: ["Tree Trimming", "Tree Removal"],
    businessHours: {},
    ...fields,
  };
}

export const businesses = (n: number, from = 1) => Array.from({ length: n }, (_, i) => listBusiness(from + i));

export const pageOf = (all: ListBusiness[], page = 1): ListPage => ({
  data: all.slice((page - 1) * DIRECTORY_PAGE_SIZE, page * DIRECTORY_PAGE_SIZE),
  total: all.length,
});

/** GET /api/businesses over `all`: search matches names, city matches the city value, limit/offset page. */
export function directoryApi(all: ListBusiness[]): Reply {
  return (call) => {
    const q = call.url.searchParams;
    const search = q.get("search")?.toLowerCase();
    const city = CITIES.find((c) => c.value === q.get("city"))?.label;
    const found = all.filter((b) => (!search || b.name.toLowerCase().includes(search)) && (!city || b.city === city));
    const offset = Number(q.get("offset") ?? 0);
    const limit = Number(q.get("limit") ?? DIRECTORY_PAGE_SIZE);
    return reply.json(200, { data: found.slice(offset, offset + limit), total: found.length })(call);
  };
}
