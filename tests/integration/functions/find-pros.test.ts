/**
 * POST /api/find-pros against a real Redis with a seeded directory: matches, the photo
 * upload (multipart, magic bytes, size), and the no-JavaScript page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIND_PROS_ENDPOINT } from "../../../netlify/lib/find-pros.ts";
import { VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import { PHOTO_ERROR, PHOTO_TOO_LARGE, type PhotoStore } from "../../../netlify/lib/blobs.ts";
import { MAX_BODY_LIMIT } from "../../../netlify/lib/http.ts";
import { MAX_UPLOAD_BYTES, PHOTO_TEXT } from "../../../src/lib/photos.ts";
import { NO_MATCHES_MESSAGE } from "../../../netlify/lib/find-pros.ts";
import type { BusinessInput } from "../../../src/lib/schemas/business.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import {
  TINY_PNG,
  functionsHarness,
  jsonRequest,
  multipartRequest,
  nextIp,
  validFindPros,
  expectFlash,
} from "../../helpers/functions.ts";

const h = await functionsHarness("find-pros");
afterAll(async () => {
  await h?.teardown();
});

function biz(n: number, over: Partial<BusinessInput>): BusinessInput {
  const { lat, lng } = zipPoint(over.zipCode ?? "78701")!;
  return {
    location: { lat, lng },
    id: `fp-${n}`,
    name: `Business ${n}`,
    slug: `business-${n}`,
    description: "Tree care.",
    city: "Austin",
    zipCode: "78701",
    address: `${n} Main St`,
    phone: `(512) 555-01${String(n).padStart(2, "0")}`,
    isFeatured: false,
    rating: "4.0",
    reviewCount: 1,
    services: ["Tree Removal"],
    specialties: [],
    serviceAreas: [],
    businessHours: {},
    yearsInBusiness: 3,
    ...over,
  };
}

const DIRECTORY: BusinessInput[] = [
  biz(1, { name: "Austin Oak Removal", isFeatured: true, rating: "4.5", reviewCount: 10 }),
  biz(2, { name: "Capitol Tree Co", rating: "4.9", reviewCount: 20, services: ["Tree Trimming", "Tree Removal"] }),
  // A sample business (the demo directory): its match says so.
  biz(3, { name: "Barton Creek Trees", rating: "4.7", reviewCount: 5, phone: undefined, isSample: true }),
  biz(4, { name: "Hill Country Removal", rating: "3.9", reviewCount: 2 }),
  biz(5, {
    name: "Austin Trim Only",
    rating: "5.0",
    reviewCount: 50,
    services: ["Tree Trimming"],
    description: "We never do tree removal.",
  }),
  biz(6, { name: "Bayou Removal", city: "Houston", zipCode: "77002", rating: "4.8", reviewCount: 7 }),
  biz(7, { name: "Dallas Stump Free", city: "Dallas", zipCode: "75201", services: ["Tree Trimming"] }),
  // Suburbs: Round Rock, Pflugerville and Georgetown north of Austin; Katy west of Houston.
  biz(8, {
    name: "Round Rock Stump Co",
    zipCode: "78664",
    locality: "Round Rock",
    rating: "4.2",
    reviewCount: 3,
    services: ["Stump Grinding"],
  }),
  biz(9, {
    name: "Pflugerville Stumps",
    zipCode: "78660",
    locality: "Pflugerville",
    rating: "4.9",
    reviewCount: 30,
    services: ["Stump Grinding"],
  }),
  biz(10, {
    name: "Georgetown Grinding",
    zipCode: "78626",
    locality: "Georgetown",
    rating: "5.0",
    reviewCount: 9,
    services: ["Stump Grinding", "Tree Trimming"],
  }),
  biz(11, {
    name: "Katy Tree Removal",
    city: "Houston",
    zipCode: "77494",
    locality: "Katy",
    rating: "4.1",
    reviewCount: 4,
  }),
];

const form = (payload: Record<string, string>, photo?: File | string) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(payload)) fd.append(k, v);
  if (photo !== undefined) fd.append("photo", photo);
  return fd;
};
const png = (bytes: Uint8Array<ArrayBuffer> = TINY_PNG, type = "image/png", name = "tree.png") =>
  new File([bytes], name, { type });
const JSON_ACCEPT = { accept: "application/json" };

describe.skipIf(!h)("POST /api/find-pros", () => {
  beforeAll(async () => {
    for (const b of DIRECTORY) await h!.store.businesses.upsert(b);
  });
  const findPros = (deps = {}) => h!.handler(FIND_PROS_ENDPOINT, deps);

  it("JSON: 201, the lead, and up to 3 nearest matches offering the service, best rated among equally near", async () => {
    const res = await findPros()(jsonRequest("/api/find-pros", validFindPros()), nextIp());
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.ok).toBe(true);
    // All three share the 78701 point, so the rating decides.
    const miles = body.matches[0].distanceMiles;
    expect(body.matches).toEqual([
      {
        id: "fp-2",
        name: "Capitol Tree Co",
        slug: "business-2",
        phone: "(512) 555-0102",
        rating: "4.9",
        reviewCount: 20,
        distanceMiles: miles,
      },
      {
        id: "fp-3",
        name: "Barton Creek Trees",
        slug: "business-3",
        phone: null,
        rating: "4.7",
        reviewCount: 5,
        distanceMiles: miles,
        isSample: true,
      },
      {
        id: "fp-1",
        name: "Austin Oak Removal",
        slug: "business-1",
        phone: "(512) 555-0101",
        rating: "4.5",
        reviewCount: 10,
        distanceMiles: miles,
      },
    ]);
    expect(miles).toBeLessThan(10);
    expect(body.message).toBeUndefined();
    const lead = await h!.store.leads.get(body.id);
    expect(lead).toMatchObject({
      type: "find-pros",
      data: { location: "Austin, TX", serviceType: "Tree Removal", matchedBusinesses: body.matches },
    });
    expect((lead!.data as Record<string, unknown>).photoKey).toBeUndefined();
  });

  it("a suburb ZIP finds its neighbours, nearest first: Round Rock 78664, Katy 77494", async () => {
    const send = async (location: string, serviceType: string) =>
      (await (
        await findPros()(jsonRequest("/api/find-pros", { ...validFindPros(), location, serviceType }), nextIp())
      ).json()) as {
        id: string;
        matches: { name: string; distanceMiles: number }[];
      };
    const roundRock = await send("78664", "Stump Grinding");
    expect(roundRock.matches.map((m) => m.name)).toEqual([
      "Round Rock Stump Co",
      "Pflugerville Stumps",
      "Georgetown Grinding",
    ]);
    expect(roundRock.matches[0]!.distanceMiles).toBe(0);
    expect(roundRock.matches[1]!.distanceMiles).toBeGreaterThan(3);
    const lead = await h!.store.leads.get(roundRock.id);
    expect((lead!.data as { matchedBusinesses: { id: string }[] }).matchedBusinesses.map((m) => m.id)).toEqual([
      "fp-8",
      "fp-9",
      "fp-10",
    ]);

    const katy = await send("77494", "Tree Removal");
    // Downtown Houston is about 28 miles from Katy: inside 50. Austin is not.
    expect(katy.matches.map((m) => m.name)).toEqual(["Katy Tree Removal", "Bayou Removal"]);
    expect((await send("Pflugerville, TX", "Stump Grinding")).matches[0]!.name).toBe("Pflugerville Stumps");
  });

  it("a place finds its neighbours; no match gets the phone promise", async () => {
    const houston = await (
      await findPros()(jsonRequest("/api/find-pros", { ...validFindPros(), location: "77002" }), nextIp())
    ).json();
    expect(houston.matches.map((m: { name: string }) => m.name)).toEqual(["Bayou Removal", "Katy Tree Removal"]);

    const none = await (
      await findPros()(
        jsonRequest("/api/find-pros", { ...validFindPros(), location: "Dallas", serviceType: "Stump Grinding" }),
        nextIp(),
      )
    ).json();
    expect(none).toMatchObject({ ok: true, matches: [], message: NO_MATCHES_MESSAGE });

    const elsewhere = await (
      await findPros()(jsonRequest("/api/find-pros", { ...validFindPros(), location: "Chicago, IL" }), nextIp())
    ).json();
    expect(elsewhere.matches).toEqual([]);
  });

  it("the spec's and the form's messages for an empty body", async () => {
    const res = await findPros()(jsonRequest("/api/find-pros", {}), nextIp());
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe(VALIDATION_ERROR);
    expect(body.fields).toMatchObject({
      location: "Please enter your city or ZIP code",
      serviceType: "Please select a service type",
      propertyType: "Please select a property type",
      timeline: "Please select a timeline",
      name: "Name must be at least 2 characters",
      phone: "Please enter a valid phone number",
      email: "Please enter a valid email",
    });
  });

  it("multipart with a small PNG: stored in Blobs under the lead's photoKey", async () => {
    const res = await findPros()(
      multipartRequest("/api/find-pros", form(validFindPros(), png()), JSON_ACCEPT),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const lead = await h!.store.leads.get(id);
    const data = lead!.data as Record<string, unknown>;
    expect(data.photoKey).toMatch(/^ph_/);
    expect(data.photoType).toBe("image/png");
    const blob = h!.photos.entries.get(String(data.photoKey));
    expect(blob?.meta).toMatchObject({ contentType: "image/png", size: TINY_PNG.byteLength });
    expect(Buffer.from(blob!.bytes).equals(Buffer.from(TINY_PNG))).toBe(true);
  });

  it("no file chosen (an empty part) is fine", async () => {
    const res = await findPros()(
      multipartRequest(
        "/api/find-pros",
        form(validFindPros(), new File([], "", { type: "application/octet-stream" })),
        JSON_ACCEPT,
      ),
      nextIp(),
    );
    expect(res.status).toBe(201);
  });

  it("a non-image, a disguised file or an image over the limit: 400 with the photo's message", async () => {
    const before = h!.photos.entries.size;
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 10);
    big.set(TINY_PNG);
    const cases: [File, string][] = [
      [png(new TextEncoder().encode("<?php system($_GET['c']); ?>"), "image/png", "shell.png"), PHOTO_ERROR],
      [png(TINY_PNG, "text/html", "tree.html"), PHOTO_ERROR],
      [png(new TextEncoder().encode("%PDF-1.7"), "application/pdf", "doc.pdf"), PHOTO_ERROR],
      [png(big), PHOTO_TOO_LARGE],
    ];
    for (const [file, message] of cases) {
      const res = await findPros()(
        multipartRequest("/api/find-pros", form(validFindPros(), file), JSON_ACCEPT),
        nextIp(),
      );
      expect(res.status, file.name).toBe(400);
      expect(await res.json()).toEqual({ error: VALIDATION_ERROR, fields: { photo: message } });
    }
    expect(h!.photos.entries.size).toBe(before);
  });

  it("a photo over the limit inside the body cap, without JavaScript: back to the form with what was typed and the photo's message", async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(TINY_PNG);
    const fields = { ...validFindPros(), description: "Oak over the garage" };
    const page = await findPros()(multipartRequest("/api/find-pros", form(fields, png(big))), nextIp());
    const flash = await expectFlash(h!.store, page, "/forms/find-pros");
    expect(flash.errors).toEqual({ photo: PHOTO_TOO_LARGE });
    expect(flash.values).toMatchObject({ description: "Oak over the garage", email: fields.email });
    expect(PHOTO_TOO_LARGE).toContain("4 MB");
  });

  it("413 over the body cap: JSON for a script, and without JavaScript the form's page saying the photo is too large, the limit and how to retry", async () => {
    const before = h!.photos.entries.size;
    const big = () => form(validFindPros(), png(new Uint8Array(MAX_BODY_LIMIT + 1)));
    const res = await findPros()(multipartRequest("/api/find-pros", big(), { accept: "application/json" }), nextIp());
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: PHOTO_TEXT.tooLargeToSend });
    const page = await findPros()(multipartRequest("/api/find-pros", big()), nextIp());
    expect(await expectFlash(h!.store, page, "/forms/find-pros")).toMatchObject({
      status: 413,
      problem: PHOTO_TEXT.tooLargeToSend,
    });
    expect(PHOTO_TEXT.tooLargeToSend).toMatch(/at most 4 MB.*Choose a smaller photo/);
    // A text-only post over its own cap keeps the plain limit: its body holds no photo.
    const text = await findPros()(
      jsonRequest("/api/find-pros", JSON.stringify({ ...validFindPros(), description: "x".repeat(20_000) })),
      nextIp(),
    );
    expect(text.status).toBe(413);
    expect(((await text.json()) as { error: string }).error).toMatch(/limit 16 KB/);
    expect(h!.photos.entries.size).toBe(before);
  });

  it("a no-JS multipart post: 303 to its confirmation (the lead keeps the matches it lists); a refused one back to the form", async () => {
    const res = await findPros()(
      multipartRequest("/api/find-pros", form({ ...validFindPros(), description: "<b>hi</b>" }, png())),
      nextIp(),
    );
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/requests\/ld_[0-9a-z]+\/[\w-]{22}\/received$/);
    const lead = await h!.store.leads.get(location.split("/")[2]!);
    const matched = (lead!.data as { matchedBusinesses: { name: string; slug: string; phone: string }[] })
      .matchedBusinesses;
    expect(matched.map((m) => m.name)).toContain("Capitol Tree Co");
    expect(matched.map((m) => m.name)).not.toContain("Hill Country Removal");

    const invalid = await findPros()(
      multipartRequest(
        "/api/find-pros",
        form({ ...validFindPros(), email: "x" }, png(new TextEncoder().encode("nope"))),
      ),
      nextIp(),
    );
    const flash = await expectFlash(h!.store, invalid, "/forms/find-pros");
    expect(flash.status).toBe(422);
    expect(flash.errors).toMatchObject({ photo: PHOTO_ERROR, email: "Please enter a valid email" });
  });

  it("bots upload nothing; a retried upload keeps one photo; a Blobs outage is a 503 with nothing stored", async () => {
    const before = h!.photos.entries.size;
    const bot = await findPros()(
      multipartRequest("/api/find-pros", form({ ...validFindPros(), company_website: "x" }, png()), JSON_ACCEPT),
      nextIp(),
    );
    expect(bot.status).toBe(201);
    expect(h!.photos.entries.size).toBe(before);

    const key = { ...JSON_ACCEPT, "idempotency-key": `photo-${Date.now()}` };
    const a = await (
      await findPros()(multipartRequest("/api/find-pros", form(validFindPros(), png()), key), nextIp())
    ).json();
    const b = await (
      await findPros()(multipartRequest("/api/find-pros", form(validFindPros(), png()), key), nextIp())
    ).json();
    expect(b.id).toBe(a.id);
    expect(h!.photos.entries.size).toBe(before + 1);

    const leadsBefore = (await h!.store.leads.list("find-pros", { limit: 100 })).items.length;
    const broken: PhotoStore = {
      put: async () => {
        throw new Error("blobs down");
      },
      get: async () => null,
      delete: async () => {},
    };
    const res = await findPros({ photos: () => broken })(
      multipartRequest("/api/find-pros", form(validFindPros(), png()), JSON_ACCEPT),
      nextIp(),
    );
    expect(res.status).toBe(503);
    expect((await h!.store.leads.list("find-pros", { limit: 100 })).items.length).toBe(leadsBefore);
  });
});
