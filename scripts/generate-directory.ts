/**
 * npm run seed:generate — writes content/directory/businesses.json, the directory's sample
 * data: the hand-written businesses (ids below GENERATED_FROM, kept as written) plus
 * generated ones across the four metro areas and their suburbs, so "near 78664" or "near
 * Katy, TX" finds real neighbours.
 *
 * Reproducible: a fixed-seed PRNG, so re-running writes the same file. Every business is
 * geocoded here, at seed time, from its ZIP with the ZIP dataset (src/lib/geo/places.ts; the
 * store and the browser never load it for this): `location` is the ZIP's centroid, and
 * `locality` the town the ZIP belongs to when that is not the metro's own city.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { zipPoint } from "../src/lib/geo/places.ts";
import { OPEN_24_HOURS } from "../src/lib/hours.ts";
import { WEEKDAYS, type CityName } from "../src/lib/options.ts";
import { SeedFile, type BusinessHours } from "../src/lib/schemas/business.ts";
import { mulberry32 } from "./random.ts";

const FILE = "content/directory/businesses.json";
/** Ids from biz-101 on are generated; below are hand-written. */
const GENERATED_FROM = 101;

/** Towns per metro with the ZIPs businesses there use (every one is looked up in the dataset). */
const METROS: Record<CityName, { area: string[]; towns: { town: string; zips: string[]; count: number }[] }> = {
  Austin: {
    area: ["512", "737"],
    towns: [
      {
        town: "Austin",
        zips: ["78701", "78702", "78705", "78722", "78731", "78745", "78748", "78750", "78757", "78759"],
        count: 6,
      },
      { town: "Round Rock", zips: ["78664", "78665", "78681"], count: 5 },
      { town: "Pflugerville", zips: ["78660"], count: 3 },
      { town: "Cedar Park", zips: ["78613"], count: 3 },
      { town: "Leander", zips: ["78641"], count: 2 },
      { town: "Georgetown", zips: ["78626", "78628", "78633"], count: 3 },
      { town: "Hutto", zips: ["78634"], count: 2 },
      { town: "Lakeway", zips: ["78734"], count: 2 },
      { town: "Bee Cave", zips: ["78738"], count: 1 },
      { town: "Dripping Springs", zips: ["78620"], count: 2 },
      { town: "Buda", zips: ["78610"], count: 1 },
      { town: "Kyle", zips: ["78640"], count: 2 },
      { town: "Manor", zips: ["78653"], count: 1 },
      { town: "San Marcos", zips: ["78666"], count: 2 },
      { town: "Bastrop", zips: ["78602"], count: 1 },
    ],
  },
  Houston: {
    area: ["713", "281", "832"],
    towns: [
      {
        town: "Houston",
        zips: ["77002", "77005", "77008", "77018", "77024", "77042", "77057", "77077", "77079", "77098"],
        count: 6,
      },
      { town: "Katy", zips: ["77494", "77449", "77450"], count: 5 },
      { town: "Sugar Land", zips: ["77478", "77479"], count: 3 },
      { town: "The Woodlands", zips: ["77380", "77381", "77382"], count: 3 },
      { town: "Spring", zips: ["77373", "77379", "77388"], count: 2 },
      { town: "Humble", zips: ["77338", "77346"], count: 2 },
      { town: "Cypress", zips: ["77429", "77433"], count: 3 },
      { town: "Pearland", zips: ["77581", "77584"], count: 2 },
      { town: "League City", zips: ["77573"], count: 2 },
      { town: "Friendswood", zips: ["77546"], count: 1 },
      { town: "Missouri City", zips: ["77459"], count: 2 },
      { town: "Tomball", zips: ["77375"], count: 2 },
      { town: "Kingwood", zips: ["77339", "77345"], count: 2 },
      { town: "Conroe", zips: ["77301", "77304"], count: 2 },
      { town: "Richmond", zips: ["77406", "77469"], count: 1 },
      { town: "Baytown", zips: ["77520", "77521"], count: 1 },
    ],
  },
  Dallas: {
    area: ["214", "469", "972"],
    towns: [
      {
        town: "Dallas",
        zips: ["75201", "75204", "75206", "75209", "75219", "75230", "75231", "75248", "75252"],
        count: 6,
      },
      { town: "Plano", zips: ["75023", "75024", "75025", "75074", "75075", "75093"], count: 4 },
      { town: "Frisco", zips: ["75033", "75034", "75035"], count: 3 },
      { town: "McKinney", zips: ["75069", "75070", "75071"], count: 3 },
      { town: "Allen", zips: ["75002", "75013"], count: 2 },
      { town: "Richardson", zips: ["75080", "75081"], count: 2 },
      { town: "Garland", zips: ["75040", "75043", "75044"], count: 2 },
      { town: "Irving", zips: ["75038", "75039", "75062"], count: 2 },
      { town: "Carrollton", zips: ["75006", "75007"], count: 2 },
      { town: "Grapevine", zips: ["76051"], count: 1 },
      { town: "Arlington", zips: ["76010", "76013", "76016"], count: 2 },
      { town: "Mesquite", zips: ["75149", "75150"], count: 1 },
      { town: "Rockwall", zips: ["75032", "75087"], count: 2 },
      { town: "Denton", zips: ["76201", "76205"], count: 1 },
      { town: "Flower Mound", zips: ["75022", "75028"], count: 2 },
      { town: "Lewisville", zips: ["75057", "75067"], count: 1 },
      { town: "Grand Prairie", zips: ["75050", "75052"], count: 1 },
    ],
  },
  "San Antonio": {
    area: ["210", "830"],
    towns: [
      {
        town: "San Antonio",
        zips: ["78205", "78207", "78213", "78216", "78228", "78230", "78240", "78249", "78251", "78259"],
        count: 6,
      },
      { town: "New Braunfels", zips: ["78130", "78132"], count: 4 },
      { town: "Boerne", zips: ["78006", "78015"], count: 3 },
      { town: "Schertz", zips: ["78154"], count: 2 },
      { town: "Converse", zips: ["78109"], count: 1 },
      { town: "Helotes", zips: ["78023"], count: 2 },
      { town: "Universal City", zips: ["78148"], count: 1 },
      { town: "Cibolo", zips: ["78108"], count: 2 },
      { town: "Seguin", zips: ["78155"], count: 1 },
      { town: "Live Oak", zips: ["78233"], count: 1 },
      { town: "Bulverde", zips: ["78163"], count: 1 },
    ],
  },
};

const random = mulberry32(17);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]!);
  return out;
}

const FAMILY = [
  "Garza",
  "Nguyen",
  "Miller",
  "Hernandez",
  "Patel",
  "Johnson",
  "Okafor",
  "Schulz",
  "Ramirez",
  "Kowalski",
  "Brennan",
  "Delgado",
  "Whitfield",
  "Castillo",
  "Lindqvist",
  "Moreno",
  "Tran",
  "Bishop",
  "Villarreal",
  "Hollis",
];
const NATURE = [
  "Live Oak",
  "Pecan",
  "Cedar Elm",
  "Bur Oak",
  "Mesquite",
  "Cypress",
  "Magnolia",
  "Red Oak",
  "Sycamore",
  "Bluebonnet",
  "Hackberry",
  "Lacebark",
  "Limestone",
  "Prairie",
  "Post Oak",
  "Bois d'Arc",
];
const TRADE = [
  "Tree Care",
  "Tree Service",
  "Arbor Co.",
  "Arborists",
  "Tree Works",
  "Tree & Stump",
  "Canopy Care",
  "Tree Experts",
  "Tree & Land",
];
const SPECIALTIES = [
  "Oak wilt prevention",
  "Heritage oaks",
  "Crane-assisted removal",
  "Storm damage",
  "Young tree pruning",
  "Pecan care",
  "Cedar clearing",
  "Root collar excavation",
  "Crape myrtle pruning",
  "Palm trimming",
  "Hazard tree assessment",
  "HOA common areas",
  "Commercial properties",
  "Land clearing for builders",
  "Firewood and mulch",
];
const EXTRA_SERVICES = ["Cabling & Bracing", "Tree Planting", "Oak Wilt Treatment", "Mulching", "Root Care"];
const CORE_SERVICES = [
  "Tree Removal",
  "Tree Trimming",
  "Stump Grinding",
  "Tree Pruning",
  "Storm Cleanup",
  "Tree Health Assessment",
  "Lot Clearing",
];
const IMAGES = ["oak-1", "crew-1", "crane-1", "stump-1", "storm-1", "yard-1", "pine-1", "palm-1"].map(
  (n) => `/images/directory/${n}.svg`,
);
const STREETS = [
  "Oak Hollow",
  "Mesquite Trail",
  "Pecan Grove",
  "Brushy Creek",
  "Cypress Bend",
  "Ranch Road",
  "Live Oak",
  "Hackberry",
  "Cedar Ridge",
  "Bluebonnet",
  "Magnolia",
  "Prairie View",
  "Sycamore",
  "Post Oak",
  "Creekside",
  "Hilltop",
];
const STREET_KINDS = ["Dr", "Ln", "Rd", "Blvd", "Trl", "Way", "Ct", "Pkwy"];

const day = (open: string, close: string) => `${open} - ${close}`;
function hoursFor(kind: string): BusinessHours {
  const week = (weekday: string, saturday: string, sunday: string): BusinessHours => ({
    monday: weekday,
    tuesday: weekday,
    wednesday: weekday,
    thursday: weekday,
    friday: weekday,
    saturday,
    sunday,
  });
  switch (kind) {
    case "always":
      return Object.fromEntries(WEEKDAYS.map((d) => [d, OPEN_24_HOURS])) as BusinessHours;
    case "storm":
      return week(day("6:00 AM", "10:00 PM"), day("6:00 AM", "10:00 PM"), day("8:00 AM", "8:00 PM"));
    case "late":
      // Evening dispatch that runs past midnight at the end of the week.
      return {
        ...week(day("7:00 AM", "7:00 PM"), day("8:00 AM", "4:00 PM"), ""),
        friday: day("7:00 AM", "1:00 AM"),
        saturday: day("8:00 AM", "1:00 AM"),
      };
    case "six":
      return week(day("7:00 AM", "6:00 PM"), day("7:00 AM", "6:00 PM"), "");
    case "early":
      return week(day("6:30 AM", "5:30 PM"), day("7:00 AM", "1:00 PM"), "");
    default:
      return week(day("7:00 AM", "5:00 PM"), day("8:00 AM", "12:00 PM"), "");
  }
}

const REVIEWERS = [
  "Maria G.",
  "Tom B.",
  "Alicia R.",
  "Dev P.",
  "Karen W.",
  "Luis M.",
  "Jordan K.",
  "Beth S.",
  "Hector V.",
  "Amy L.",
  "Chris D.",
  "Nina O.",
  "Raj S.",
  "Paula F.",
  "Greg T.",
  "Yolanda C.",
  "Ben H.",
  "Erin M.",
];
const REVIEW_TEXTS: [number, string, string, string][] = [
  [
    5,
    "Careful with our live oak",
    "They thinned the canopy without topping it and sealed every cut. Yard was spotless afterwards.",
    "Tree Trimming",
  ],
  [
    5,
    "Fast after the storm",
    "A big limb came down on the fence overnight. They had a crew out by 8 AM and hauled everything.",
    "Storm Cleanup",
  ],
  [
    4,
    "Good work, a day late",
    "Rain pushed the job a day, but they called ahead and the removal itself was clean.",
    "Tree Removal",
  ],
  [
    5,
    "Stump gone, lawn level",
    "Ground the stump well below grade and backfilled with mulch. Fair price.",
    "Stump Grinding",
  ],
  [
    5,
    "Honest advice",
    "The arborist told us the pecan was healthy and only needed deadwood out, not removal.",
    "Tree Health Assessment",
  ],
  [
    4,
    "Solid crew",
    "Showed up on time, worked safely around the power line, left a few small twigs behind.",
    "Tree Trimming",
  ],
  [3, "Okay result", "The work was fine but the quote took a week to arrive.", "Tree Pruning"],
  [
    5,
    "Cleared our back lot",
    "Took out the cedar and brush in two days. We can finally see the creek.",
    "Lot Clearing",
  ],
  [
    5,
    "Answered at midnight",
    "Called their emergency line when a tree split onto the carport. They came within the hour.",
    "Emergency Service",
  ],
  [
    4,
    "Would hire again",
    "Pruned six crape myrtles the right way. A bit pricier than others, worth it.",
    "Tree Pruning",
  ],
];

function reviewsFor(n: number, emergency: boolean) {
  const texts = REVIEW_TEXTS.filter(([, , , service]) => emergency || service !== "Emergency Service");
  return sample(texts, n).map(([rating, title, reviewText, serviceType], i) => ({
    customerName: pick(REVIEWERS),
    rating,
    title,
    reviewText,
    serviceType,
    isVerified: random() < 0.7,
    createdAt: new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 700) * 86_400_000 + (i * 37 + 9) * 60_000)
      .toISOString()
      .replace(".000Z", "Z"),
  }));
}

const listText = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function located(zip: string, metro: CityName) {
  const point = zipPoint(zip);
  if (!point) throw new Error(`ZIP ${zip} is not in the dataset`);
  return { location: { lat: point.lat, lng: point.lng }, ...(point.city !== metro ? { locality: point.city } : {}) };
}

const existing = SeedFile.parse(JSON.parse(readFileSync(FILE, "utf8")));
const written = existing.filter((b) => Number(b.id.slice(4)) < GENERATED_FROM);

// Hand-written businesses keep their words; they gain a point, and the 24/7 ones the flag.
const curated = written.map((b) => {
  const always = WEEKDAYS.every((d) => b.businessHours[d] === OPEN_24_HOURS);
  const { reviews, ...rest } = b;
  return {
    ...rest,
    ...located(b.zipCode, b.city),
    ...(always || (b.services.includes("Emergency Service") && b.isFeatured) ? { emergency247: true } : {}),
    reviews,
  };
});

const usedNames = new Set(curated.map((b) => b.name));
const generated = [];
let n = GENERATED_FROM;
for (const [metro, { area, towns }] of Object.entries(METROS) as [CityName, (typeof METROS)[CityName]][]) {
  for (const { town, zips, count } of towns) {
    for (let i = 0; i < count; i++) {
      const zip = zips[i % zips.length]!;
      let name = "";
      while (!name || usedNames.has(name)) {
        const style = random();
        name =
          style < 0.35
            ? `${town} ${pick(TRADE)}`
            : style < 0.7
              ? `${pick(NATURE)} ${pick(TRADE)}`
              : `${pick(FAMILY)} ${pick(["Family", "Brothers", "& Sons", ""])} ${pick(TRADE)}`.replace(/\s+/g, " ");
      }
      usedNames.add(name);
      const kind = random() < 0.12 ? "always" : pick(["standard", "standard", "six", "early", "storm", "late"]);
      const emergency = kind === "always" || kind === "storm" || random() < 0.15;
      const services = [
        ...sample(CORE_SERVICES, between(2, 5)),
        ...(emergency ? ["Emergency Service"] : []),
        ...(random() < 0.4 ? sample(EXTRA_SERVICES, 1) : []),
      ];
      const specialties = sample(SPECIALTIES, between(1, 3));
      const neighbours = sample(
        towns.map((t) => t.town).filter((t) => t !== town),
        between(2, 5),
      );
      const years = between(2, 34);
      const id = `biz-${String(n++).padStart(3, "0")}`;
      const domain = `${slugify(name).replace(/-/g, "")}.example.com`;
      generated.push({
        id,
        name,
        slug: slugify(`${name} ${town}`),
        description:
          `${name} serves ${town} and nearby ${metro === town ? "neighborhoods" : `${metro}-area towns`} with ${listText(services.slice(0, 3)).toLowerCase()}. ` +
          `${years > 15 ? `Family-run for ${years} years` : `Founded ${years} years ago`}, the crew is known for ${specialties[0]!.toLowerCase()}` +
          `${emergency ? " and answers emergency calls around the clock" : ""}.`,
        city: metro,
        state: "TX",
        zipCode: zip,
        address: `${between(100, 9899)} ${pick(STREETS)} ${pick(STREET_KINDS)}`,
        phone: `(${pick(area)}) 555-0${String(between(100, 199))}`,
        email: `office@${domain}`,
        website: `https://${domain}`,
        isFeatured: random() < 0.08,
        services,
        specialties,
        serviceAreas: [town, ...neighbours],
        images: sample(IMAGES, between(1, 3)),
        businessHours: hoursFor(kind),
        yearsInBusiness: years,
        ...(random() < 0.6 ? { licenseNumber: `ISA Certified Arborist TX-${between(1000, 9999)}A` } : {}),
        insuranceDetails: `$${pick(["1M", "2M"])} general liability${random() < 0.6 ? ", workers' compensation" : ""}`,
        ...located(zip, metro),
        ...(emergency ? { emergency247: true } : {}),
        reviews: reviewsFor(between(0, 6), emergency),
      });
    }
  }
}

const all = SeedFile.parse([...curated, ...generated]);
writeFileSync(FILE, `${JSON.stringify([...curated, ...generated], null, 2)}\n`);
console.log(
  `[generate-directory] ${all.length} businesses (${curated.length} hand-written, ${generated.length} generated) -> ${FILE}`,
);
