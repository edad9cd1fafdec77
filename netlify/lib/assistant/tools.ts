/**
 * The assistant's two tools. `estimate_quote` answers with the very function the quote
 * dialog and the quote endpoint use, so a price in the chat is the price on the form;
 * `open_quote_form` puts a "Get a quote" button under the reply that opens the site's
 * quote dialog preselected, which is where a visitor's contact details belong.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { z } from "../../../src/lib/zod.ts";
import { ChatAction } from "../../../src/lib/chat.ts";
import { estimate } from "../../../src/lib/estimate.ts";
import { PRUNING } from "../../../src/lib/facts.ts";
import { SERVICE_TYPES, URGENCY, optionLabel, optionValues } from "../../../src/lib/options.ts";
import { stormLine, type ChatStorm } from "./storm.ts";

export const ESTIMATE_TOOL = "estimate_quote";
export const QUOTE_FORM_TOOL = "open_quote_form";

const serviceProperty = {
  type: "string",
  enum: optionValues(SERVICE_TYPES),
  description: `The service: ${SERVICE_TYPES.map((s) => `${s.value} (${s.label})`).join(", ")}. Pruning is quoted as ${PRUNING.quotedAs}.`,
} as const;
const urgencyProperty = {
  type: "string",
  enum: optionValues(URGENCY),
  description: `How soon: ${URGENCY.map((u) => `${u.value} (${u.label})`).join(", ")}.`,
} as const;

export const TOOLS: Anthropic.Tool[] = [
  {
    name: ESTIMATE_TOOL,
    description:
      "The site's instant estimate range in US dollars for one service at one urgency. The only source of prices: call it before stating any price for a job.",
    input_schema: {
      type: "object",
      properties: { serviceType: serviceProperty, urgency: urgencyProperty },
      required: ["serviceType", "urgency"],
      additionalProperties: false,
    },
  },
  {
    name: QUOTE_FORM_TOOL,
    description:
      "Shows the visitor a 'Get a quote' button that opens the site's quote form with these choices preselected. Use it when the visitor wants a firm quote, to book, or to be contacted; never collect names, phone numbers, e-mail or addresses in the chat.",
    input_schema: {
      type: "object",
      properties: { serviceType: serviceProperty, urgency: urgencyProperty },
      additionalProperties: false,
    },
  },
];

const EstimateInput = z.object({
  /** A SERVICE_TYPES value. */
  serviceType: z.enum(optionValues(SERVICE_TYPES)),
  /** An URGENCY value. */
  urgency: z.enum(optionValues(URGENCY)),
});

const QuoteFormInput = ChatAction.omit({ type: true });

export interface ToolOutcome {
  /** Sent back to the model as the tool_result content. */
  content: string;
  /** The model sent input the schema refuses (it gets to correct itself). */
  isError?: boolean;
  /** A button for the widget. */
  action?: ChatAction;
}

/**
 * Runs one tool call from the model. Never throws: bad input is reported back to the model.
 * `storm`: the visitor's ZIP is inside a declared storm, so the estimate carries its storm line.
 */
export function runTool(name: string, input: unknown, storm?: ChatStorm | null): ToolOutcome {
  if (name === ESTIMATE_TOOL) {
    const parsed = EstimateInput.safeParse(input);
    if (!parsed.success)
      return {
        content: `Invalid input. serviceType must be one of ${optionValues(SERVICE_TYPES).join(", ")}; urgency one of ${optionValues(URGENCY).join(", ")}.`,
        isError: true,
      };
    const { serviceType, urgency } = parsed.data;
    const range = estimate(serviceType, urgency);
    const inStorm = stormLine(storm, serviceType, urgency);
    return {
      content: JSON.stringify({
        ...(inStorm ? { storm: inStorm } : {}),
        service: optionLabel(SERVICE_TYPES, serviceType),
        urgency: optionLabel(URGENCY, urgency),
        range: range.text,
        min: range.min,
        max: range.max,
        note: "Instant estimate. The final price is confirmed after a free on-site assessment.",
      }),
    };
  }
  if (name === QUOTE_FORM_TOOL) {
    const parsed = QuoteFormInput.safeParse(input ?? {});
    if (!parsed.success)
      return {
        content: "Invalid input: use the listed serviceType and urgency values, or leave them out.",
        isError: true,
      };
    return {
      content: "A 'Get a quote' button is shown under your reply. Tell the visitor to tap it.",
      action: { type: "quote", ...parsed.data },
    };
  }
  return { content: `Unknown tool ${name}.`, isError: true };
}
