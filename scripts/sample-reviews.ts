/**
 * The sample directory's review words (scripts/generate-directory.ts writes them; the rules are
 * docs/directory.md, "Sample data rules", guarded by tests/unit/sample-data.test.ts):
 * - a review is about a service its business offers, and names no other service's work;
 * - the trees it names grow in the business's region (TREES_BY_METRO; no live oak in Chicago);
 * - its text is on no other review anywhere: composed from parts with the business's name,
 *   town, tree and service, and drawn again while the text is already used.
 * Pure and deterministic: everything random comes from the `random` passed in.
 */
import type { MetroName } from "../src/lib/options.ts";

/** Trees a review may name, per metro: common street and yard trees there. */
export const TREES_BY_METRO: Record<MetroName, readonly string[]> = {
  Austin: ["live oak", "cedar elm", "pecan", "Texas red oak", "Ashe juniper", "crape myrtle"],
  Houston: ["live oak", "water oak", "southern magnolia", "loblolly pine", "pecan", "crape myrtle"],
  Dallas: ["live oak", "cedar elm", "pecan", "bur oak", "Shumard oak", "post oak", "crape myrtle"],
  "San Antonio": ["live oak", "cedar elm", "pecan", "mesquite", "bald cypress"],
  Miami: ["sabal palm", "royal poinciana", "gumbo limbo", "live oak", "mahogany"],
  Orlando: ["live oak", "laurel oak", "sabal palm", "slash pine", "southern magnolia"],
  Tampa: ["live oak", "laurel oak", "sabal palm", "queen palm", "slash pine"],
  Jacksonville: ["live oak", "laurel oak", "southern magnolia", "slash pine", "water oak"],
  "Los Angeles": ["coast live oak", "eucalyptus", "California sycamore", "jacaranda", "Canary Island pine"],
  "San Diego": ["coast live oak", "eucalyptus", "Torrey pine", "jacaranda", "Mexican fan palm"],
  Sacramento: ["valley oak", "London plane", "eucalyptus", "Chinese pistache", "coast redwood"],
  "San Jose": ["coast live oak", "valley oak", "eucalyptus", "coast redwood", "London plane"],
  "New York City": ["London plane", "honey locust", "red maple", "pin oak", "Callery pear"],
  Buffalo: ["sugar maple", "red maple", "Norway maple", "honey locust", "red oak"],
  Rochester: ["sugar maple", "Norway maple", "red oak", "white pine", "honey locust"],
  Albany: ["sugar maple", "red maple", "white pine", "red oak", "honey locust"],
  Chicago: ["silver maple", "honey locust", "bur oak", "American elm", "green ash"],
  Naperville: ["bur oak", "silver maple", "green ash", "honey locust", "sugar maple"],
  Springfield: ["silver maple", "bur oak", "pin oak", "hackberry", "green ash"],
  Peoria: ["silver maple", "bur oak", "pin oak", "hackberry", "sugar maple"],
};

/** Which metros are in which state (the generator's metro list says; kept here for the tree check). */
const STATE_OF_METRO: Record<MetroName, string> = {
  Austin: "TX",
  Houston: "TX",
  Dallas: "TX",
  "San Antonio": "TX",
  Miami: "FL",
  Orlando: "FL",
  Tampa: "FL",
  Jacksonville: "FL",
  "Los Angeles": "CA",
  "San Diego": "CA",
  Sacramento: "CA",
  "San Jose": "CA",
  "New York City": "NY",
  Buffalo: "NY",
  Rochester: "NY",
  Albany: "NY",
  Chicago: "IL",
  Naperville: "IL",
  Springfield: "IL",
  Peoria: "IL",
};

/** Every tree a review may name in a state: its metros' lists together. */
export function treesOfState(state: string): string[] {
  const metros = (Object.keys(STATE_OF_METRO) as MetroName[]).filter((m) => STATE_OF_METRO[m] === state);
  return [...new Set(metros.flatMap((m) => TREES_BY_METRO[m]))];
}

/** Every tree any sample review names (what the region check looks for). */
export const ALL_TREES: readonly string[] = [...new Set(Object.values(TREES_BY_METRO).flat())];

/**
 * The words that say a review is about a service: a review names only its business's services
 * (its own one and no other it does not offer).
 */
export const SERVICE_TERMS: Record<string, RegExp> = {
  "Tree Removal": /\b(?:took down|take down|taken down|removed|removal|remove)\b/i,
  "Tree Trimming": /\btrim/i,
  "Tree Pruning": /\bprun/i,
  "Stump Grinding": /\bstump|\bgr(?:ou|i)nd(?:ing)? (?:out|down)\b|\bgrind/i,
  "Storm Cleanup": /storm/i,
  "Tree Health Assessment": /\bassess|\bdiagnos|\binspect/i,
  "Lot Clearing": /\blot\b|\bbrush\b/i,
  "Emergency Service": /emergenc/i,
  "Cabling & Bracing": /\bcabl|\bbrac(?:e|ed|ing)\b/i,
  "Tree Planting": /\bplant(?:ed|ing|s)?\b/i,
  "Oak Wilt Treatment": /oak wilt/i,
  Mulching: /mulch/i,
  "Root Care": /\broot (?:zone|care|flare|collar)|\baerat/i,
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A tree named in text, singular or plural, any case. */
export const treePattern = (tree: string) => new RegExp(`\\b${escape(tree)}(?:s|es)?\\b`, "i");

/** Text with the business's own words (name, towns) taken out, so "Bur Oak Tree Care" or the town "Live Oak" never count as a mention. */
export function withoutOwnWords(text: string, ownWords: readonly string[]): string {
  let out = text;
  for (const word of [...ownWords].sort((a, b) => b.length - a.length)) {
    if (word) out = out.replace(new RegExp(escape(word), "gi"), " ");
  }
  return out;
}

/** The trees `text` names that are not in `allowed` (longest names first: "coast live oak" is not "live oak"). */
export function foreignTrees(text: string, allowed: readonly string[]): string[] {
  let rest = text;
  for (const tree of [...allowed].sort((a, b) => b.length - a.length)) {
    rest = rest.replace(new RegExp(treePattern(tree).source, "gi"), " ");
  }
  return ALL_TREES.filter((tree) => treePattern(tree).test(rest));
}

/** The services `text` names that are not in `offered`. */
export function foreignServices(text: string, offered: readonly string[]): string[] {
  return Object.entries(SERVICE_TERMS)
    .filter(([service, pattern]) => !offered.includes(service) && pattern.test(text))
    .map(([service]) => service);
}

const plural = (tree: string) => (/(?:s|sh|ch|x)$/.test(tree) ? `${tree}es` : `${tree}s`);
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type Core = (tree: string, town: string) => string;

/** What the crew did, per service: a sentence with the tree (and sometimes the town) in it. */
const DONE: Record<string, Core[]> = {
  "Tree Removal": [
    (t) => `They took down a dead ${t} next to the garage in sections without touching the roof.`,
    (t) => `They removed a leaning ${t} by the back fence, and the yard looked untouched after.`,
    (t, town) => `The ${t} in our ${town} front yard had to come out; they took it down in one morning.`,
  ],
  "Tree Trimming": [
    (t) => `They trimmed the ${t} back from our roof and kept its shape.`,
    (t) => `Our ${t} was hanging over the neighbor's fence, and they trimmed it evenly.`,
    (t, town) => `Had the big ${t} over our driveway in ${town} trimmed before the summer.`,
  ],
  "Tree Pruning": [
    (t) => `They pruned the ${t} in the front yard with clean cuts and no topping.`,
    (t) => `Two young ${plural(t)} pruned for structure, with a clear word on each cut.`,
    (t, town) => `Our ${town} street ${t} got pruned properly for the first time in years.`,
  ],
  "Stump Grinding": [
    (t) => `They ground out the old ${t} stump below grade and raked the spot level.`,
    (t) => `The ${t} stump we kept mowing around is finally gone, roots and all.`,
    (t, town) => `Two ${t} stumps in our ${town} backyard were ground down in under an hour.`,
  ],
  "Storm Cleanup": [
    (t) => `After the storm a ${t} limb lay across our driveway; they cut it up and hauled it the same day.`,
    (t) => `The storm split our ${t}, and they had the pieces off the lawn by evening.`,
    (t, town) => `Half of ${town} needed help after the storm, and they still got to our ${t} within two days.`,
  ],
  "Tree Health Assessment": [
    (t) => `The arborist inspected our ${t}, found it sound, and only suggested taking out deadwood.`,
    (t) => `We asked for an assessment of a ${t} with thinning leaves and got a written plan, not a sales pitch.`,
    (t, town) => `They inspected every ${t} along our ${town} property line and told us which ones to watch.`,
  ],
  "Lot Clearing": [
    (t) => `They cleared the brush off our back lot and left the ${plural(t)} we wanted to keep.`,
    (t, town) => `Our empty lot in ${town} was all brush and vines; they cleared it and spared the old ${t}.`,
    (t) => `Two days of brush work and we can see the far end of the lot again, ${t} still standing.`,
  ],
  "Emergency Service": [
    (t) => `We called the emergency line when a ${t} split onto the carport at night, and a crew came within the hour.`,
    (t, town) =>
      `A ${t} came down across our ${town} street after dark; their emergency crew had it off the road by midnight.`,
    (t) => `They answered the emergency number at 5 AM when a ${t} limb was resting on the roof.`,
  ],
  "Cabling & Bracing": [
    (t) => `They cabled the split trunk of our old ${t} instead of pushing us to take it out.`,
    (t) => `Our ${t} has two heavy leaders; they put in a cable and a brace rod, and it held through the winter.`,
    (t, town) => `The ${t} shading our ${town} patio is cabled now, and the arborist checks it every year.`,
  ],
  "Tree Planting": [
    (t) => `They planted two young ${plural(t)} and showed us how to water them the first summer.`,
    (t, town) => `We had a ${t} planted in the parkway in ${town}; they set it at the right depth and staked it.`,
    (t) => `New ${t} planted along the side yard, with a clear watering schedule taped to the gate.`,
  ],
  "Oak Wilt Treatment": [
    (t) => `They treated our ${t} for oak wilt and explained when it is safe to cut oaks here.`,
    (t, town) =>
      `Oak wilt was showing up on our ${town} street; they injected our ${t} and trenched between the trees.`,
  ],
  Mulching: [
    (t) => `They mulched a wide ring around the ${t} and pulled the old mulch off the trunk.`,
    (t, town) => `Fresh mulch under every ${t} in our ${town} yard, spread at the right depth.`,
  ],
  "Root Care": [
    (t) => `They aerated the root zone of our ${t} after the patio work packed the soil.`,
    (t, town) => `Our ${t} in ${town} looked tired; root care and a soil test brought it back by spring.`,
  ],
};

type Part = (name: string, town: string) => string;

const OPENERS: Part[] = [
  () => "",
  () => "",
  (name) => `Hired ${name} this spring.`,
  (name) => `Second time using ${name}.`,
  (name, town) => `Found ${name} through a neighbor in ${town}.`,
  (_, town) => `We live on the north side of ${town}.`,
  (_, town) => `Got three quotes here in ${town}.`,
  (name) => `First time hiring ${name}.`,
  (_, town) => `Long-time ${town} homeowners here.`,
];

const GOOD_DETAILS: Part[] = [
  () => "They showed up on time and kept us posted.",
  () => "The price matched the written quote.",
  () => "The crew lead walked us through the plan first.",
  () => "They laid plywood over the flower beds.",
  () => "Everything was raked and blown off the walk before they left.",
  () => "They worked carefully around the power line.",
  () => "Booked within the week.",
  () => "Polite crew, gone by 3 PM.",
  (name) => `${name} answered the phone on the first ring.`,
  () => "No ruts in the lawn from the equipment.",
];

const GOOD_CLOSERS: Part[] = [
  () => "",
  () => "Would hire again.",
  () => "Recommended.",
  () => "We'll call them for the next job.",
  (_, town) => `Glad to have found a good crew in ${town}.`,
  () => "Good value.",
  (name) => `Thank you, ${name}.`,
];

const MIXED_DETAILS: Part[] = [
  () => "The work was fine, but the quote took a week to arrive.",
  () => "Good result, though they left sawdust on the patio.",
  () => "Rain pushed the job back twice, and we had to call to find out.",
  () => "Decent work; a couple of small branches stayed on the lawn.",
  () => "They did what they said, but the price went up on the day.",
  () => "The crew was fine, the office slow to answer.",
];

const MIXED_CLOSERS: Part[] = [
  () => "",
  () => "Okay overall.",
  () => "Might use them again.",
  (_, town) => `There may be better options in ${town}.`,
];

/** The job a 1- or 2-star review complains about, per service. */
const JOB: Record<string, (tree: string) => string> = {
  "Tree Removal": (t) => `removing a dead ${t}`,
  "Tree Trimming": (t) => `trimming our ${t}`,
  "Tree Pruning": (t) => `pruning the ${t} out front`,
  "Stump Grinding": (t) => `grinding an old ${t} stump`,
  "Storm Cleanup": (t) => `storm cleanup after a ${t} limb fell`,
  "Tree Health Assessment": (t) => `an assessment of our ${t}`,
  "Lot Clearing": () => "clearing the brush on our back lot",
  "Cabling & Bracing": (t) => `cabling our ${t}`,
  "Tree Planting": (t) => `planting a young ${t}`,
  "Oak Wilt Treatment": (t) => `oak wilt treatment on our ${t}`,
  Mulching: (t) => `mulching around the ${t}`,
  "Root Care": (t) => `root care for our ${t}`,
};

/** What went wrong: a 1- or 2-star review (the emergency's own below). */
const BAD: ((job: string, town: string) => string)[] = [
  (job) => `We booked them for ${job} and nobody came to the first appointment.`,
  (job) => `${capitalize(job)} was done, but they left a mess on the lawn and never came back for it.`,
  (job, town) => `Waited three weeks for ${job} in ${town}, then the crew came two hours late.`,
  (job) => `They quoted one price for ${job} and billed another.`,
  (job) => `${capitalize(job)} was rushed, and nobody answered our calls about it afterwards.`,
];

const BAD_EMERGENCY: Core[] = [
  (t) => `Called their emergency line about a ${t} on the roof; nobody came until the next afternoon.`,
  (t) => `Their emergency number went to voicemail twice while a ${t} limb hung over the driveway.`,
  (t, town) => `The emergency crew came for the fallen ${t} in ${town}, but the bill was double the phone quote.`,
];

const BAD_CLOSERS: Part[] = [
  () => "",
  () => "Went with someone else next time.",
  () => "Not again.",
  () => "Disappointing.",
];

const TITLES: Record<"good" | "great" | "mixed" | "bad", string[]> = {
  great: [
    "Excellent crew",
    "Careful, tidy work",
    "Exactly what we asked for",
    "Couldn't be happier",
    "Top-notch",
    "Professional from start to finish",
    "Great experience",
  ],
  good: ["Solid work", "Would hire again", "Good value", "Reliable crew", "Happy with the result", "Did a good job"],
  mixed: ["Okay result", "Fine, not great", "Mixed experience", "Good work, slow office"],
  bad: ["Disappointed", "Late and hard to reach", "Would not hire again", "Not as promised"],
};

export interface ReviewWords {
  title: string;
  reviewText: string;
  serviceType: string;
}

export interface ReviewContext {
  /** Stars 1..5 (the words follow them). */
  rating: number;
  /** The service the review should be about, when the business offers it. */
  wanted?: string;
  business: { name: string; town: string; metro: MetroName; services: readonly string[] };
  random: () => number;
  /** Every review text written so far, across the whole file: no text twice. */
  used: Set<string>;
  /** What this business's reviews used so far (sentences, openings), so they vary. */
  seen?: Set<string>;
}

const join = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join(" ");

/** One review's words, fitting its business (see the file comment). */
export function composeReview({ rating, wanted, business, random, used, seen }: ReviewContext): ReviewWords {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const pickIndex = (list: readonly unknown[]) => Math.floor(random() * list.length);
  const { name, town, metro } = business;
  const describable = business.services.filter((s) => DONE[s]);
  if (describable.length === 0) throw new Error(`${name}: no service a sample review can describe`);
  // Drawn whether used or not, so a re-run (where `wanted` is last run's answer) draws the same.
  const fallback = pick(describable);
  const serviceType = wanted && DONE[wanted] && business.services.includes(wanted) ? wanted : fallback;
  const trees = TREES_BY_METRO[metro];
  const oaks = trees.filter((t) => / oak$/.test(t));
  const treesFor = serviceType === "Oak Wilt Treatment" && oaks.length ? oaks : trees;
  const mood = rating >= 5 ? "great" : rating === 4 ? "good" : rating === 3 ? "mixed" : "bad";

  for (let attempt = 0; attempt < 300; attempt++) {
    const tree = pick(treesFor);
    const opener = pickIndex(OPENERS);
    let core: string;
    let text: string;
    if (mood === "bad") {
      const emergency = serviceType === "Emergency Service";
      const which = pickIndex(emergency ? BAD_EMERGENCY : BAD);
      core = `bad${which}`;
      const said = emergency ? BAD_EMERGENCY[which]!(tree, town) : BAD[which]!(JOB[serviceType]!(tree), town);
      text = join(OPENERS[opener]!(name, town), said, pick(BAD_CLOSERS)(name, town));
    } else {
      const which = pickIndex(DONE[serviceType]!);
      core = `${serviceType}${which}`;
      const [details, closers] = mood === "mixed" ? [MIXED_DETAILS, MIXED_CLOSERS] : [GOOD_DETAILS, GOOD_CLOSERS];
      text = join(
        OPENERS[opener]!(name, town),
        DONE[serviceType]![which]!(tree, town),
        pick(details)(name, town),
        pick(closers)(name, town),
      );
    }
    // One business's reviews do not repeat a sentence or an opening while others are left.
    if (seen && attempt < 100 && (seen.has(core) || (OPENERS[opener]!(name, town) && seen.has(`open${opener}`))))
      continue;
    // After many tries the business's own name makes it unique.
    if (attempt > 250) text = join(text, `(${name}, ${town})`);
    text = capitalize(text.replace(/\.\./g, "."));
    if (used.has(text)) continue;
    used.add(text);
    seen?.add(core).add(`open${opener}`);
    return { title: pick(TITLES[mood]), reviewText: text, serviceType };
  }
  throw new Error(`${name}: could not compose a review text not used before`);
}
