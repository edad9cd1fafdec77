/**
 * npm run seed:generate — writes content/directory/businesses.json, the directory's sample
 * data: the hand-written businesses (ids below GENERATED_FROM, their words kept) plus
 * generated ones around every city the home page serves (content/marketing/states.yaml: four
 * Texas metros and their suburbs, and Miami, Chicago, Los Angeles, ... in FL, CA, NY, IL), so
 * "near 78664", "near 33101" or "near Katy, TX" finds real neighbours.
 *
 * Reproducible: fixed-seed PRNGs (scripts/random.ts), so re-running writes the same file. It is
 * a demo and says so, and otherwise looks like a real directory (docs/directory.md, "Sample data
 * rules", guarded by tests/unit/sample-data.test.ts):
 * - every business carries `isSample: true`: its pages and cards say "Sample listing";
 * - every business is at a real ZIP of its town, geocoded here from the ZIP dataset
 *   (src/lib/geo/places.ts; the store and the browser never load it for this), at its own
 *   point: the ZIP's centroid moved by up to MAX_JITTER_MILES, so distances are real;
 * - every phone is its own: a fictional 555-01xx number on an area code of its metro, never
 *   the site's hotline (SITE.phone), never another business's;
 * - no dead links: sample businesses have no website (an *.example.com one leads nowhere);
 * - no shared stock photos: only the one showcase business keeps its own pictures, every
 *   other shows "No photos yet";
 * - reviews: most businesses have several, with varied ratings; a few have none. None is
 *   Verified (only a review invited after a booked job is); each is about a service its business
 *   offers, names trees of its region, and no text is on two reviews (scripts/sample-reviews.ts).
 *   Hand-written businesses keep their reviewers, ratings and dates, with words composed the
 *   same way.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { zipPoint } from "../src/lib/geo/places.ts";
import { OPEN_24_HOURS } from "../src/lib/hours.ts";
import { METROS as METRO_LIST, WEEKDAYS, type MetroName } from "../src/lib/options.ts";
import type { BusinessHours } from "../src/lib/schemas/business.ts";
import { SeedFile } from "../src/lib/schemas/seed.ts";
import { SITE } from "../src/lib/site.ts";
import { mulberry32 } from "./random.ts";
import { composeReview, foreignServices, foreignTrees, treesOfState, withoutOwnWords } from "./sample-reviews.ts";

const FILE = "content/directory/businesses.json";
/** Ids from biz-101 on are generated; below are hand-written. */
const GENERATED_FROM = 101;
/** How far a business may sit from its ZIP's centroid. */
const MAX_JITTER_MILES = 1.5;
/** The one business whose pictures are its own (the business page's showcase). */
const SHOWCASE_ID = "biz-001";

type Town = { town: string; zips: string[]; count: number };
type MetroPlan = { area: string[]; towns: Town[] };

/** Towns per metro with the ZIPs businesses there use (every one is looked up in the dataset). */
const METROS: Record<MetroName, MetroPlan> = {
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
  Miami: {
    area: ["305", "786"],
    towns: [
      { town: "Miami", zips: ["33101", "33125", "33130", "33133", "33137", "33145", "33155"], count: 4 },
      { town: "Coral Gables", zips: ["33134"], count: 1 },
      { town: "Hialeah", zips: ["33012"], count: 1 },
      { town: "Miami Beach", zips: ["33139"], count: 1 },
    ],
  },
  Orlando: {
    area: ["407", "321"],
    towns: [
      { town: "Orlando", zips: ["32801", "32803", "32806", "32807", "32819"], count: 4 },
      { town: "Winter Park", zips: ["32789"], count: 1 },
      { town: "Kissimmee", zips: ["34741"], count: 1 },
    ],
  },
  Tampa: {
    area: ["813"],
    towns: [
      { town: "Tampa", zips: ["33602", "33606", "33609", "33611", "33617"], count: 4 },
      { town: "Brandon", zips: ["33511"], count: 2 },
    ],
  },
  Jacksonville: {
    area: ["904"],
    towns: [
      { town: "Jacksonville", zips: ["32202", "32205", "32207", "32210", "32246"], count: 4 },
      { town: "Orange Park", zips: ["32073"], count: 1 },
    ],
  },
  "Los Angeles": {
    area: ["213", "323"],
    towns: [
      { town: "Los Angeles", zips: ["90012", "90026", "90034", "90042", "90066"], count: 4 },
      { town: "Pasadena", zips: ["91101"], count: 1 },
      { town: "Glendale", zips: ["91205"], count: 1 },
      { town: "Santa Monica", zips: ["90401"], count: 1 },
    ],
  },
  "San Diego": {
    area: ["619", "858"],
    towns: [
      { town: "San Diego", zips: ["92101", "92103", "92109", "92117", "92128"], count: 4 },
      { town: "Chula Vista", zips: ["91910"], count: 1 },
      { town: "La Mesa", zips: ["91941"], count: 1 },
    ],
  },
  Sacramento: {
    area: ["916"],
    towns: [
      { town: "Sacramento", zips: ["95814", "95816", "95818", "95822", "95864"], count: 4 },
      { town: "Elk Grove", zips: ["95624"], count: 1 },
      { town: "Roseville", zips: ["95661"], count: 1 },
    ],
  },
  "San Jose": {
    area: ["408"],
    towns: [
      { town: "San Jose", zips: ["95110", "95112", "95125", "95128", "95136"], count: 4 },
      { town: "Santa Clara", zips: ["95050"], count: 1 },
      { town: "Campbell", zips: ["95008"], count: 1 },
    ],
  },
  "New York City": {
    area: ["212", "718", "917"],
    towns: [
      { town: "Manhattan", zips: ["10001", "10025"], count: 2 },
      { town: "Brooklyn", zips: ["11215"], count: 2 },
      { town: "Queens", zips: ["11375"], count: 1 },
      { town: "The Bronx", zips: ["10463"], count: 1 },
      { town: "Staten Island", zips: ["10314"], count: 1 },
    ],
  },
  Buffalo: {
    area: ["716"],
    towns: [
      { town: "Buffalo", zips: ["14201", "14209", "14214", "14216", "14222"], count: 4 },
      { town: "Amherst", zips: ["14226"], count: 1 },
      { town: "Cheektowaga", zips: ["14225"], count: 1 },
    ],
  },
  Rochester: {
    area: ["585"],
    towns: [
      { town: "Rochester", zips: ["14604", "14607", "14610", "14618", "14620", "14626"], count: 4 },
      { town: "Pittsford", zips: ["14534"], count: 1 },
    ],
  },
  Albany: {
    area: ["518"],
    towns: [
      { town: "Albany", zips: ["12203", "12208", "12209"], count: 3 },
      { town: "Troy", zips: ["12180"], count: 1 },
      { town: "Delmar", zips: ["12054"], count: 1 },
    ],
  },
  Chicago: {
    area: ["312", "773"],
    towns: [
      { town: "Chicago", zips: ["60601", "60614", "60618", "60625", "60640", "60657"], count: 5 },
      { town: "Evanston", zips: ["60201"], count: 1 },
      { town: "Oak Park", zips: ["60302"], count: 1 },
    ],
  },
  Naperville: {
    area: ["630", "331"],
    towns: [
      { town: "Naperville", zips: ["60540", "60563", "60564", "60565"], count: 3 },
      { town: "Aurora", zips: ["60504"], count: 1 },
      { town: "Wheaton", zips: ["60187"], count: 1 },
    ],
  },
  Springfield: {
    area: ["217"],
    towns: [
      { town: "Springfield", zips: ["62701", "62702", "62703", "62704", "62711"], count: 4 },
      { town: "Chatham", zips: ["62629"], count: 1 },
    ],
  },
  Peoria: {
    area: ["309"],
    towns: [
      { town: "Peoria", zips: ["61602", "61603", "61604", "61614", "61615"], count: 4 },
      { town: "East Peoria", zips: ["61611"], count: 1 },
      { town: "Pekin", zips: ["61554"], count: 1 },
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
/** Name words by state (Texas first: the words the Texas data always used). */
const NATURE_BY_STATE: Record<string, string[]> = {
  FL: ["Sabal Palm", "Mangrove", "Cypress", "Live Oak", "Coquina", "Slash Pine", "Gulf Breeze", "Everglades"],
  CA: ["Redwood", "Coast Oak", "Manzanita", "Sierra", "Valley Oak", "Sycamore", "Pacific", "Golden State"],
  NY: ["Sugar Maple", "Hudson", "White Pine", "Birch", "Empire", "Adirondack", "Linden", "Erie"],
  IL: ["Prairie", "Bur Oak", "Lakeshore", "Hickory", "Fox River", "Maple", "Sangamon", "Illinois Valley"],
};
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
/** Specialties that only make sense in Texas, swapped for local ones elsewhere. */
const TEXAS_ONLY = new Set(["Oak wilt prevention", "Pecan care", "Cedar clearing"]);
const SPECIALTIES_BY_STATE: Record<string, string[]> = {
  FL: ["Palm trimming", "Hurricane preparation", "Mangrove trimming permits"],
  CA: ["Fire-safe clearance", "Eucalyptus removal", "Drought-stressed trees"],
  NY: ["Street tree permits", "Ice storm damage", "Emerald ash borer"],
  IL: ["Emerald ash borer", "Dutch elm disease", "Ice storm damage"],
};
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
/** The showcase business's own pictures; nobody else shows them. */
const SHOWCASE_IMAGES = ["oak-1", "crew-1", "crane-1"].map((n) => `/images/directory/${n}.svg`);
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
/**
 * The old review table's ratings and services, drawn as before so every business keeps its
 * ratings (and the rest of the file its draws); the words are composed (sample-reviews.ts).
 */
const REVIEW_DRAWS: [number, string][] = [
  [5, "Tree Trimming"],
  [5, "Storm Cleanup"],
  [4, "Tree Removal"],
  [5, "Stump Grinding"],
  [5, "Tree Health Assessment"],
  [4, "Tree Trimming"],
  [3, "Tree Pruning"],
  [5, "Lot Clearing"],
  [5, "Emergency Service"],
  [4, "Tree Pruning"],
];
/** Texas-only entries of the old table (they named Texas trees): left out elsewhere, as before. */
const TEXAS_DRAWS = new Set([4, 7, 9]);
const MORE_REVIEW_DRAWS: [number, string][] = [
  [5, "Tree Trimming"],
  [4, "Tree Removal"],
  [2, "Tree Pruning"],
  [3, "Stump Grinding"],
  [5, "Tree Health Assessment"],
  [1, ""],
  [4, "Tree Trimming"],
  [5, "Storm Cleanup"],
];

/** Review words have a PRNG of their own, so they never shift a business's other draws. */
const wordsRandom = mulberry32(34);
/** Every review text in the file, so none is written twice. */
const usedTexts = new Set<string>();

interface ReviewOf {
  /** What this business's reviews used so far (sample-reviews.ts varies them). */
  seen?: Set<string>;
  name: string;
  town: string;
  metro: MetroName;
  state: string;
  services: string[];
  serviceAreas: string[];
}

/** A review's words for its business, checked against the rules before they are written. */
function wordsFor(b: ReviewOf, rating: number, wanted: string) {
  const words = composeReview({
    rating,
    wanted,
    business: { name: b.name, town: b.town, metro: b.metro, services: b.services },
    random: wordsRandom,
    used: usedTexts,
    seen: (b.seen ??= new Set()),
  });
  const own = withoutOwnWords(`${words.title} ${words.reviewText}`, [b.name, b.town, ...b.serviceAreas]);
  const trees = foreignTrees(own, treesOfState(b.state));
  const services = foreignServices(own, b.services);
  if (trees.length || services.length || !b.services.includes(words.serviceType))
    throw new Error(`${b.name}: review names ${[...trees, ...services].join(", ")}: ${words.reviewText}`);
  return words;
}

function reviewsFor(n: number, emergency: boolean, texan: boolean, business: ReviewOf) {
  const draws = [
    ...(texan ? REVIEW_DRAWS : REVIEW_DRAWS.filter((_, i) => !TEXAS_DRAWS.has(i))),
    ...MORE_REVIEW_DRAWS,
  ].filter(([, service]) => emergency || service !== "Emergency Service");
  return sample(draws, n).map(([rating, wanted], i) => {
    const customerName = pick(REVIEWERS);
    random(); // once the Verified draw: kept so the dates below stay as they were
    return {
      customerName,
      rating,
      ...wordsFor(business, rating, wanted),
      isVerified: false,
      createdAt: new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 700) * 86_400_000 + (i * 37 + 9) * 60_000)
        .toISOString()
        .replace(".000Z", "Z"),
    };
  });
}

/** How many reviews a generated business has: a few none, most several. */
function reviewCount(): number {
  const r = random();
  return r < 0.03 ? 0 : r < 0.13 ? between(1, 2) : between(3, 9);
}

const listText = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A small PRNG of its own per business, so one business's point never shifts another's. */
function ownRandom(id: string): () => number {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return mulberry32(h >>> 0);
}

const MILES_PER_DEGREE_LAT = 69.05;

/** Its own point near its ZIP's centroid (uniform over a disc of MAX_JITTER_MILES). */
function located(id: string, zip: string, locality: string | undefined) {
  const point = zipPoint(zip);
  if (!point) throw new Error(`ZIP ${zip} is not in the dataset`);
  const r = ownRandom(id);
  const miles = MAX_JITTER_MILES * Math.sqrt(r());
  const angle = 2 * Math.PI * r();
  const lat = point.lat + (miles * Math.sin(angle)) / MILES_PER_DEGREE_LAT;
  const lng = point.lng + (miles * Math.cos(angle)) / (MILES_PER_DEGREE_LAT * Math.cos((point.lat * Math.PI) / 180));
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  return { location: { lat: round(lat), lng: round(lng) }, ...(locality ? { locality } : {}) };
}

/** The town a ZIP belongs to when it is not the metro's own city ("New York" is New York City's). */
function localityOf(zip: string, metro: MetroName): string | undefined {
  const city = zipPoint(zip)?.city;
  return city && !metro.startsWith(city) ? city : undefined;
}

/** Phones: 555-0100..0199 on the metro's area codes, handed out once each. */
const usedPhones = new Set<string>([SITE.phone]);
const PHONE = /^\((\d{3})\) 555-01\d\d$/;
function freshPhone(area: readonly string[], choose: (free: string[]) => string): string {
  const free = area
    .flatMap((code) => Array.from({ length: 100 }, (_, i) => `(${code}) 555-01${String(i).padStart(2, "0")}`))
    .filter((p) => !usedPhones.has(p));
  if (free.length === 0) throw new Error(`no 555-01xx numbers left on ${area.join("/")}`);
  const phone = choose(free);
  usedPhones.add(phone);
  return phone;
}

const metroInfo = (name: MetroName) => METRO_LIST.find((m) => m.label === name)!;

const existing = SeedFile.parse(JSON.parse(readFileSync(FILE, "utf8")));
const written = existing.filter((b) => Number(b.id.slice(4)) < GENERATED_FROM);

// Hand-written businesses keep their words (their reviews their reviewers, ratings and dates,
// with words that fit them, composed like the rest); they gain their own point, and the 24/7
// ones the flag. A phone that is the hotline, another's or not on the metro's area codes is replaced
// by the first free one (deterministic, so a re-run keeps it); the website and shared stock
// pictures go.
const curated = written.map((b) => {
  const always = WEEKDAYS.every((d) => b.businessHours[d] === OPEN_24_HOURS);
  const { reviews, website: _deadLink, images: _stock, phone, isSample: _sample, ...rest } = b;
  const { area } = METROS[b.city as MetroName];
  const code = phone ? PHONE.exec(phone)?.[1] : undefined;
  let ownPhone = phone;
  if (phone !== undefined) {
    if (code && area.includes(code) && !usedPhones.has(phone)) usedPhones.add(phone);
    else ownPhone = freshPhone(area, (free) => free[0]!);
  }
  const locality = b.locality ?? localityOf(b.zipCode, b.city as MetroName);
  const about: ReviewOf = { ...b, town: locality ?? b.city, metro: b.city as MetroName };
  return {
    ...rest,
    ...(ownPhone !== undefined ? { phone: ownPhone } : {}),
    images: b.id === SHOWCASE_ID ? SHOWCASE_IMAGES : [],
    ...located(b.id, b.zipCode, locality),
    ...(always || (b.services.includes("Emergency Service") && b.isFeatured) ? { emergency247: true } : {}),
    isSample: true,
    reviews: reviews.map(({ customerName, customerEmail, rating, serviceType, createdAt }) => ({
      customerName,
      ...(customerEmail ? { customerEmail } : {}),
      rating,
      ...wordsFor(about, rating, serviceType),
      isVerified: false,
      createdAt,
    })),
  };
});

const usedNames = new Set(curated.map((b) => b.name));
const generated = [];
let n = GENERATED_FROM;
for (const [metro, { area, towns }] of Object.entries(METROS) as [MetroName, MetroPlan][]) {
  const { state, timeZone } = metroInfo(metro);
  const texan = state === "TX";
  const nature = texan ? NATURE : NATURE_BY_STATE[state]!;
  const specialtyPool = texan
    ? SPECIALTIES
    : [...SPECIALTIES.filter((sp) => !TEXAS_ONLY.has(sp) && sp !== "Palm trimming"), ...SPECIALTIES_BY_STATE[state]!];
  const extras = texan ? EXTRA_SERVICES : EXTRA_SERVICES.filter((x) => x !== "Oak Wilt Treatment");
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
              ? `${pick(nature)} ${pick(TRADE)}`
              : `${pick(FAMILY)} ${pick(["Family", "Brothers", "& Sons", ""])} ${pick(TRADE)}`.replace(/\s+/g, " ");
      }
      usedNames.add(name);
      const kind = random() < 0.12 ? "always" : pick(["standard", "standard", "six", "early", "storm", "late"]);
      const emergency = kind === "always" || kind === "storm" || random() < 0.15;
      const services = [
        ...sample(CORE_SERVICES, between(2, 5)),
        ...(emergency ? ["Emergency Service"] : []),
        ...(random() < 0.4 ? sample(extras, 1) : []),
      ];
      const specialties = sample(specialtyPool, between(1, 3));
      const neighbours = sample(
        towns.map((t) => t.town).filter((t) => t !== town),
        between(Math.min(2, towns.length - 1), Math.min(5, towns.length - 1)),
      );
      const years = between(2, 34);
      const id = `biz-${String(n++).padStart(3, "0")}`;
      const domain = `${slugify(name).replace(/-/g, "")}.example.com`;
      const area_ = metro === town ? "neighborhoods" : `${metro}-area towns`;
      generated.push({
        id,
        name,
        slug: slugify(`${name} ${town}`),
        description:
          `${name} serves ${town} and nearby ${area_} with ${listText(services.slice(0, 3)).toLowerCase()}. ` +
          `${years > 15 ? `Family-run for ${years} years` : `Founded ${years} years ago`}, the crew is known for ${specialties[0]!.toLowerCase()}` +
          `${emergency ? " and answers emergency calls around the clock" : ""}.`,
        city: metro,
        state,
        zipCode: zip,
        address: `${between(100, 9899)} ${pick(texan ? STREETS : STREETS.filter((st) => !/Mesquite|Pecan|Bluebonnet|Brushy|Ranch/.test(st)))} ${pick(STREET_KINDS)}`,
        phone: freshPhone(area, pick),
        email: `office@${domain}`,
        isFeatured: random() < 0.08,
        services,
        specialties,
        serviceAreas: [town, ...neighbours],
        images: [] as string[],
        businessHours: hoursFor(kind),
        yearsInBusiness: years,
        ...(random() < 0.6 ? { licenseNumber: `ISA Certified Arborist ${state}-${between(1000, 9999)}A` } : {}),
        insuranceDetails: `$${pick(["1M", "2M"])} general liability${random() < 0.6 ? ", workers' compensation" : ""}`,
        ...located(id, zip, localityOf(zip, metro)),
        ...(texan ? {} : { timeZone }),
        ...(emergency ? { emergency247: true } : {}),
        isSample: true,
        reviews: reviewsFor(reviewCount(), emergency, texan, {
          name,
          town,
          metro,
          state,
          services,
          serviceAreas: [town, ...neighbours],
        }),
      });
    }
  }
}

const all = SeedFile.parse([...curated, ...generated]);
writeFileSync(FILE, `${JSON.stringify([...curated, ...generated], null, 2)}\n`);
console.log(
  `[generate-directory] ${all.length} businesses (${curated.length} hand-written, ${generated.length} generated) -> ${FILE}`,
);
