/**
 * The built-in assistant: answers when there is no API key, the day's token budget is
 * spent, or Claude fails or is too slow. Deterministic and stateless: it reads the whole
 * (trimmed) history on every request and walks the same path as the prompt asks Claude
 * to, residential or commercial -> which service -> how soon -> the range from
 * estimate() with the phone number and the quote button. Danger words get the phone
 * number first, whatever step the conversation is at. Every price and response time comes
 * from the estimate table and the facts module (src/lib/facts.ts).
 */
import { CHAT_GREETING, type ChatAction, type ChatMessage, type ChatReply } from "../../../src/lib/chat.ts";
import { estimate, type ServiceType, type Urgency } from "../../../src/lib/estimate.ts";
import { CONTACT_PROMISE_HOURS, PRUNING, emergencyFigures, formatRange } from "../../../src/lib/facts.ts";
import { SERVICE_TYPES, URGENCY, optionLabel } from "../../../src/lib/options.ts";
import { DANGER_FIRST, HOTLINE } from "../../../src/lib/forms/copy.ts";
import { stormLine, type ChatStorm } from "./storm.ts";
import { SITE } from "../../../src/lib/site.ts";

type Segment = "residential" | "commercial";

interface Slots {
  segment?: Segment;
  service?: ServiceType;
  urgency?: Urgency;
}

// First match wins, so the more specific patterns come first.
const SEGMENTS: readonly [RegExp, Segment][] = [
  [
    /\b(commercial|business|office|store|shop|restaurant|hoa|propert(?:y|ies) manage|apartment complex|complex|church|school|warehouse|company|hotel|municipal|landlord|rental)/i,
    "commercial",
  ],
  [/\b(residential|home|house|yard|backyard|garden|homeowner|residence|my property|condo|cabin)\b/i, "residential"],
];

/** Situations the emergency page lists under "When to Call". */
const DANGER =
  /\b(emergenc|fell|fallen|falling|on (?:my|the|our|a) (?:roof|house|home|car|truck|garage|shed|fence|deck)|power ?lines?|electric(?:al)? lines?|storm|blocking|blocked|block(?:s|ing)? (?:the )?(?:road|driveway|street)|leaning|hanging|split (?:trunk|tree)|cracked)/i;

const SERVICES: readonly [RegExp, ServiceType][] = [
  [/\b(stumps?|grind)/i, "stump-grinding"],
  [
    /\b(remov|tak(?:e|en|ing) (?:\w+ ){0,3}down|cut (?:\w+ ){0,3}down|dead (?!branch|limb)|get rid of)/i,
    "tree-removal",
  ],
  [/\b(trim|prun|cut back|overhang|branches|limbs?|thin(?:ning)?|shape|crown|hedge)/i, "tree-trimming"],
  [/\b(emergenc)/i, "emergency"],
];

const URGENCIES: readonly [RegExp, Urgency][] = [
  [
    /\b(not urgent|no rush|no hurry|not in a hurry|whenever|flexible|next month|months?|sometime|no (?:real )?deadline|not really|later)\b/i,
    "not-urgent",
  ],
  [/\b(asap|right now|immediately|today|tonight|emergency|urgent(?:ly)?|now)\b/i, "emergency"],
  [/\b(few days|couple (?:of )?days|\d+ days|days|this weekend|tomorrow|soon)\b/i, "within-days"],
  [/\b(week|7 days)\b/i, "within-week"],
];

const OWNER =
  /\b(my (?:tree[- ]?(?:care|service)? )?(?:business|company) (?:grow|scale)|grow(?:ing)? my (?:tree )?(?:business|company)|tree[- ](?:service|care) (?:business|owner|company)|i (?:own|run) a tree|audit|valuation|sell my (?:business|company)|exit strategy)/i;
const DIRECTORY =
  /\b(directory|near me|local (?:pro|company|companies|arborist|business)|find (?:a |an )?(?:pro|company|contractor|arborist|tree service))/i;
const THANKS = /^\s*(?:thanks?|thank you|thx|ty|great|perfect|ok(?:ay)?|cool|got it|awesome)\b[\s!.]*$/i;

const SEGMENT_QUESTION = "Is the work for a residential or a commercial property?";
const SERVICE_QUESTION = `Which service do you need: ${SERVICE_TYPES.map((s) => s.label.toLowerCase())
  .join(", ")
  .replace(/, ([^,]*)$/, " or $1")}?`;
const URGENCY_QUESTION = `How soon do you need it: ${URGENCY.filter((u) => u.value !== "emergency")
  .map((u) => u.label.toLowerCase())
  .join(", ")
  .replace(/, ([^,]*)$/, " or $1")}? If a tree is on a building or near power lines, call ${SITE.phone} now.`;

const SERVICE_PAGES: Record<ServiceType, string> = {
  "tree-trimming": "/services/tree-trimming",
  "tree-removal": "/services/tree-removal",
  "stump-grinding": "/services/stump-grinding",
  emergency: "/services/emergency",
};

function match<T>(table: readonly (readonly [RegExp, T])[], text: string): T | undefined {
  return table.find(([re]) => re.test(text))?.[1];
}

function slotsOf(texts: readonly string[]): Slots {
  const slots: Slots = {};
  for (const text of texts) {
    slots.segment = match(SEGMENTS, text) ?? slots.segment;
    slots.service = match(SERVICES, text) ?? slots.service;
    slots.urgency = match(URGENCIES, text) ?? slots.urgency;
  }
  return slots;
}

const complete = (s: Slots): s is Required<Pick<Slots, "service" | "urgency">> & Slots =>
  s.service !== undefined && s.urgency !== undefined;

const serviceName = (service: ServiceType) => optionLabel(SERVICE_TYPES, service).toLowerCase();

function quoteAction(slots: Slots): ChatAction[] {
  return [
    {
      type: "quote",
      ...(slots.service ? { serviceType: slots.service } : {}),
      ...(slots.urgency ? { urgency: slots.urgency } : {}),
    },
  ];
}

const PRUNING_WORDS = /\bprun/i;

/** How pruning is priced: quoted as trimming, with its own per-tree price confirmed on site. */
const PRUNING_NOTE = `Pruning is quoted as ${serviceName(PRUNING.quotedAs)} in the instant estimate; the per-tree pruning price, ${formatRange(...PRUNING.perTree)} per tree, is confirmed on site.`;

/** The service's range when it is not urgent, and that sooner costs more (the table's multipliers). */
function startingPrice(service: ServiceType): string {
  return `${estimate(service, "not-urgent").text} when it isn't urgent, up to ${estimate(service, "within-days").text} within a few days.`;
}

function estimateReply(
  slots: Slots & { service: ServiceType; urgency: Urgency },
  pruning = false,
  storm?: ChatStorm | null,
): ChatReply {
  const range = estimate(slots.service, slots.urgency).text;
  const when = optionLabel(URGENCY, slots.urgency).toLowerCase();
  const lines = [
    `For ${serviceName(slots.service)} (${when}), our instant estimate is ${range}. The final price is confirmed after a free on-site assessment.`,
    stormLine(storm, slots.service, slots.urgency),
    pruning && slots.service === PRUNING.quotedAs ? PRUNING_NOTE : "",
    slots.segment === "commercial"
      ? "For commercial properties we can also plan multi-tree or recurring work; mention it in the form."
      : "",
    `Tap "Get a quote" to send us the details (we reply within ${CONTACT_PROMISE_HOURS} hours), or call ${SITE.phone}. More about [${serviceName(slots.service)}](${SERVICE_PAGES[slots.service]}).`,
  ];
  return { message: lines.filter(Boolean).join("\n\n"), actions: quoteAction(slots) };
}

function emergencyReply(storm?: ChatStorm | null): ChatReply {
  const e = emergencyFigures();
  const inStorm = stormLine(storm, "emergency", "emergency");
  return {
    message:
      `${DANGER_FIRST.hurt} ${DANGER_FIRST.lines} Keep everyone away from the tree.\n\n` +
      `Then call ${HOTLINE.text} (answered around the clock), or send the details with "Get a quote": an emergency request goes at once to nearby crews that take emergencies now.\n\n` +
      `For reference, our instant estimate for an emergency call-out is ${e.quoted} (the ${e.base} base at ${e.multiplier} for emergency urgency), and a tree removal needed right away is ${e.removal}. [Emergency tree service](/services/emergency)` +
      (inStorm ? `\n\n${inStorm}` : ""),
    actions: [{ type: "quote", serviceType: "emergency", urgency: "emergency" }],
  };
}

/** The built-in assistant's answer to the conversation so far (the last message is the visitor's). */
export function fallbackReply(messages: readonly ChatMessage[], storm?: ChatStorm | null): ChatReply {
  const userTexts = messages.filter((m) => m.role === "user").map((m) => m.content);
  const latest = userTexts.at(-1) ?? "";
  const before = slotsOf(userTexts.slice(0, -1));
  const now = slotsOf(userTexts);

  if (DANGER.test(latest)) return emergencyReply(storm);
  if (OWNER.test(latest)) {
    return {
      message: `For tree-service owners we offer a free growth and valuation audit and a six-phase growth program: see [Business growth](/business-growth). Questions? Call ${SITE.phone}.`,
    };
  }
  if (DIRECTORY.test(latest)) {
    return {
      message: `Browse reviewed local companies in the [directory](/directory), or get matched with up to 3 licensed, insured pros on [Find a tree service](/find-a-tree-service). I can also price the job here: ${complete(now) ? "just ask." : SERVICE_QUESTION}`,
    };
  }

  // The segment is asked once (the greeting asks it); an answer we cannot place does not block the estimate.
  const segmentAsked = messages.some(
    (m) => m.role === "assistant" && (m.content === CHAT_GREETING || m.content.includes(SEGMENT_QUESTION)),
  );
  const learned = now.service !== before.service || now.urgency !== before.urgency || now.segment !== before.segment;

  if (complete(now)) {
    if (learned || !complete(before))
      return estimateReply(
        now,
        userTexts.some((t) => PRUNING_WORDS.test(t)),
        storm,
      );
    if (THANKS.test(latest))
      return {
        message: `You're welcome! Call ${SITE.phone} any time, or tap "Get a quote" when you're ready.`,
        actions: quoteAction(now),
      };
    return {
      message: `I can price another job: tell me the service and how soon. For anything else, call ${SITE.phone} or e-mail ${SITE.email}.`,
      actions: quoteAction(now),
    };
  }

  const ack = now.segment && now.segment !== before.segment ? `Thanks, a ${now.segment} property. ` : "";
  if (!now.segment && !segmentAsked)
    return {
      message: now.service ? `Happy to price ${serviceName(now.service)}. ${SEGMENT_QUESTION}` : SEGMENT_QUESTION,
    };
  if (!now.service) return { message: `${ack}${SERVICE_QUESTION}` };
  return {
    message: `${ack}${now.service !== before.service ? `${optionLabel(SERVICE_TYPES, now.service)}, got it: ${startingPrice(now.service)} ` : ""}${URGENCY_QUESTION}`,
  };
}
