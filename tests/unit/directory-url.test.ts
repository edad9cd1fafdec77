import { describe, expect, it } from "vitest";
import {
  ALL_CITIES,
  DEFAULT_DIRECTORY_STATE,
  MAX_SEARCH_LENGTH,
  businessesApiParams,
  businessesApiUrl,
  isFiltered,
  normalizeDirectoryState,
  pageCount,
  parseDirectoryQuery,
  sameDirectoryState,
  serializeDirectoryQuery,
} from "../../src/lib/directory-url";
import { CITIES } from "../../src/lib/options";
import type { DirectoryState } from "../../src/lib/directory-url";

/** A full state from the fields a test cares about. */
const S = (fields: Partial<DirectoryState>): DirectoryState => ({ ...DEFAULT_DIRECTORY_STATE, ...fields });

describe("parseDirectoryQuery", () => {
  it("no query is the default state", () => {
    expect(parseDirectoryQuery("")).toEqual(S({ search: "", city: "all", page: 1 }));
    expect(parseDirectoryQuery("?")).toEqual(DEFAULT_DIRECTORY_STATE);
  });

  it("reads q, city and page, with or without the leading ?", () => {
    const expected = S({ search: "stump grinding", city: "houston", page: 3 });
    expect(parseDirectoryQuery("?q=stump+grinding&city=houston&page=3")).toEqual(expected);
    expect(parseDirectoryQuery("q=stump%20grinding&city=houston&page=3")).toEqual(expected);
    expect(parseDirectoryQuery(new URLSearchParams({ q: "stump grinding", city: "houston", page: "3" }))).toEqual(
      expected,
    );
  });

  it("takes the no-JS form's empty values as no filter", () => {
    expect(parseDirectoryQuery("?q=&city=all")).toEqual(DEFAULT_DIRECTORY_STATE);
  });

  describe("city", () => {
    it("accepts every city value and label in any case and canonicalises to the value", () => {
      for (const city of CITIES) {
        expect(parseDirectoryQuery(`?city=${encodeURIComponent(city.value)}`).city).toBe(city.value);
        expect(parseDirectoryQuery(`?city=${encodeURIComponent(city.label)}`).city).toBe(city.value);
        expect(parseDirectoryQuery(`?city=${encodeURIComponent(`  ${city.label.toUpperCase()} `)}`).city).toBe(
          city.value,
        );
      }
    });

    it("anything it cannot resolve means all cities", () => {
      for (const raw of ["78704", "Paris", "all", "ALL", "", "austin,houston", "__proto__"]) {
        expect(parseDirectoryQuery(`?city=${encodeURIComponent(raw)}`).city).toBe(ALL_CITIES);
      }
    });

    it("the first city wins when repeated", () => {
      expect(parseDirectoryQuery("?city=dallas&city=austin").city).toBe("dallas");
    });
  });

  describe("page", () => {
    it("is a whole number of at least 1, default 1", () => {
      for (const [raw, page] of [
        ["1", 1],
        ["2", 2],
        ["12", 12],
        [" 4 ", 4],
        ["007", 7],
        ["834", 834],
      ] as const) {
        expect(parseDirectoryQuery(`?page=${encodeURIComponent(raw)}`).page).toBe(page);
      }
    });

    it("falls back to 1 for anything else", () => {
      for (const raw of ["", "0", "-2", "2.5", "1e3", "abc", "0x10", "Infinity", "NaN", "2abc"]) {
        expect(parseDirectoryQuery(`?page=${encodeURIComponent(raw)}`).page).toBe(1);
      }
    });

    it("never asks for an offset the API refuses (over 10,000)", () => {
      for (const raw of ["834", "835", "10000", "99999999999999999999999"]) {
        const offset = Number(businessesApiParams(parseDirectoryQuery(`?page=${raw}`)).get("offset"));
        expect(offset).toBeLessThanOrEqual(10_000);
        expect(offset).toBeGreaterThan(9_000);
      }
    });
  });

  describe("search", () => {
    it("is trimmed", () => {
      expect(parseDirectoryQuery("?q=%20%20oak%20wilt%20%20").search).toBe("oak wilt");
      expect(parseDirectoryQuery("?q=%20%20%20").search).toBe("");
    });

    it(`is cut to ${MAX_SEARCH_LENGTH} characters, without a trailing space`, () => {
      const long = "a".repeat(150);
      expect(parseDirectoryQuery(`?q=${long}`).search).toBe("a".repeat(MAX_SEARCH_LENGTH));
      const spaced = `${"b".repeat(MAX_SEARCH_LENGTH - 1)} tail`;
      expect(parseDirectoryQuery(new URLSearchParams({ q: spaced })).search).toBe("b".repeat(MAX_SEARCH_LENGTH - 1));
      expect(
        parseDirectoryQuery(new URLSearchParams({ q: `   ${"c".repeat(MAX_SEARCH_LENGTH)}` })).search,
      ).toHaveLength(MAX_SEARCH_LENGTH);
    });

    it("keeps what people type, punctuation and all", () => {
      expect(parseDirectoryQuery(new URLSearchParams({ q: "Stump & Limb's 24/7" })).search).toBe("Stump & Limb's 24/7");
    });
  });
});

describe("serializeDirectoryQuery", () => {
  it("the default state has no query", () => {
    expect(serializeDirectoryQuery(DEFAULT_DIRECTORY_STATE)).toBe("");
    expect(serializeDirectoryQuery({})).toBe("");
  });

  it("writes only what differs from the default, in q, city, page order", () => {
    expect(serializeDirectoryQuery({ search: "oak", city: "all", page: 1 })).toBe("?q=oak");
    expect(serializeDirectoryQuery({ search: "", city: "san-antonio", page: 1 })).toBe("?city=san-antonio");
    expect(serializeDirectoryQuery({ search: "", city: "all", page: 2 })).toBe("?page=2");
    expect(serializeDirectoryQuery({ search: "crane removal", city: "dallas", page: 4 })).toBe(
      "?q=crane+removal&city=dallas&page=4",
    );
  });

  it("normalizes on the way out too", () => {
    expect(serializeDirectoryQuery({ search: "  oak ", city: "San Antonio", page: 0 })).toBe("?q=oak&city=san-antonio");
  });

  it("round-trips every normalized state", () => {
    const states = [
      DEFAULT_DIRECTORY_STATE,
      S({ search: "oak", city: "austin", page: 2 }),
      S({ search: "a&b=c?d#e%f+g", city: "all", page: 1 }),
      S({ search: "über café", city: "houston", page: 10 }),
      ...CITIES.map((c) => S({ search: "", city: c.value, page: 3 })),
    ];
    for (const state of states) expect(parseDirectoryQuery(serializeDirectoryQuery(state))).toEqual(state);
  });

  it("canonicalises a messy URL in one pass", () => {
    const messy = "?page=abc&city=AUSTIN&q=%20tree%20removal%20&utm_source=x";
    const once = serializeDirectoryQuery(parseDirectoryQuery(messy));
    expect(once).toBe("?q=tree+removal&city=austin");
    expect(serializeDirectoryQuery(parseDirectoryQuery(once))).toBe(once);
  });
});

describe("normalizeDirectoryState", () => {
  it("fills defaults and ignores wrong types", () => {
    expect(normalizeDirectoryState()).toEqual(DEFAULT_DIRECTORY_STATE);
    expect(normalizeDirectoryState({ search: 42, city: null, page: "x" })).toEqual(DEFAULT_DIRECTORY_STATE);
    expect(normalizeDirectoryState({ page: 2.5 })).toEqual(DEFAULT_DIRECTORY_STATE);
    expect(normalizeDirectoryState({ page: 3 }).page).toBe(3);
  });
});

describe("sameDirectoryState", () => {
  it("compares normalized states", () => {
    expect(
      sameDirectoryState(S({ search: "oak ", city: "Austin", page: 1 }), S({ search: "oak", city: "austin", page: 1 })),
    ).toBe(true);
    expect(
      sameDirectoryState(S({ search: "oak", city: "austin", page: 1 }), S({ search: "oak", city: "austin", page: 2 })),
    ).toBe(false);
  });
});

describe("isFiltered", () => {
  it("is true when a search or a city is set, whatever the page", () => {
    expect(isFiltered(DEFAULT_DIRECTORY_STATE)).toBe(false);
    expect(isFiltered({ search: "   ", city: "all" })).toBe(false);
    expect(isFiltered({ search: "oak", city: "all" })).toBe(true);
    expect(isFiltered({ search: "", city: "dallas" })).toBe(true);
    expect(isFiltered({ search: "", city: "nowhere" })).toBe(false);
  });
});

describe("businessesApiParams", () => {
  it("sends search only when non-empty and city only when not all", () => {
    expect(Object.fromEntries(businessesApiParams(DEFAULT_DIRECTORY_STATE))).toEqual({ limit: "12", offset: "0" });
    expect(Object.fromEntries(businessesApiParams({ search: "  ", city: "all", page: 1 }))).toEqual({
      limit: "12",
      offset: "0",
    });
    expect(Object.fromEntries(businessesApiParams({ search: " oak ", city: "all", page: 1 }))).toEqual({
      search: "oak",
      limit: "12",
      offset: "0",
    });
    expect(Object.fromEntries(businessesApiParams({ search: "", city: "San Antonio", page: 1 }))).toEqual({
      city: "san-antonio",
      limit: "12",
      offset: "0",
    });
  });

  it("offset = (page - 1) * 12", () => {
    for (const page of [1, 2, 3, 4, 10]) {
      expect(businessesApiParams({ page }).get("offset")).toBe(String((page - 1) * 12));
      expect(businessesApiParams({ page }).get("limit")).toBe("12");
    }
  });

  it("builds the request URL", () => {
    expect(businessesApiUrl({ search: "stump grinding", city: "houston", page: 2 })).toBe(
      "/api/businesses?search=stump+grinding&city=houston&limit=12&offset=12",
    );
  });
});

describe("pageCount", () => {
  it("is at least 1 and rounds up", () => {
    expect([0, 1, 11, 12, 13, 24, 25, 48, -5].map(pageCount)).toEqual([1, 1, 1, 1, 2, 2, 3, 4, 1]);
  });
});

describe("near-me parameters", () => {
  it("reads near, radius, service, open, emergency, minRating and sort", () => {
    expect(
      parseDirectoryQuery(
        "?near=%2078664%20&radius=10&service=tree+removal&open=now&emergency=1&minRating=4.5&sort=distance&page=2",
      ),
    ).toEqual(
      S({
        near: "78664",
        radius: 10,
        service: "Tree Removal",
        open: true,
        emergency: true,
        minRating: 4.5,
        sort: "distance",
        page: 2,
      }),
    );
  });

  it("falls back to the defaults for values it cannot use", () => {
    expect(
      parseDirectoryQuery("?radius=30&service=Gardening&open=later&emergency=maybe&minRating=7&sort=price"),
    ).toEqual(DEFAULT_DIRECTORY_STATE);
  });

  it("serialises only what differs, and round-trips", () => {
    const state = S({
      near: "Katy, TX",
      radius: 50,
      service: "Stump Grinding",
      open: true,
      emergency: true,
      minRating: 4,
      sort: "rating",
      page: 3,
    });
    const query = serializeDirectoryQuery(state);
    expect(query).toBe(
      "?near=Katy%2C+TX&radius=50&service=Stump+Grinding&open=now&emergency=1&minRating=4&sort=rating&page=3",
    );
    expect(parseDirectoryQuery(query)).toEqual(state);
    expect(serializeDirectoryQuery(S({ near: "78664" }))).toBe("?near=78664");
  });

  it("sends the API names, radius only with a place", () => {
    const params = businessesApiParams(
      S({ near: "78664", radius: 10, open: true, emergency: true, sort: "distance", page: 2 }),
    );
    expect(Object.fromEntries(params)).toEqual({
      near: "78664",
      radius: "10",
      open: "now",
      emergency: "true",
      sort: "distance",
      limit: "12",
      offset: "12",
    });
    expect(businessesApiParams(S({ radius: 10 })).has("radius")).toBe(false);
  });

  it("counts the near-me filters as filtering", () => {
    expect(isFiltered(S({ near: "78664" }))).toBe(true);
    expect(isFiltered(S({ open: true }))).toBe(true);
    expect(isFiltered(S({ sort: "distance" }))).toBe(false);
  });
});
