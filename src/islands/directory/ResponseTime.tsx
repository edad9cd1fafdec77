/**
 * The business's response figures with a clock, on the directory cards and the business page:
 * "Responds to 10% of requests · usually within 2 hours · last 10 requests". Nothing until the
 * business has enough requests with an outcome; the time joins once it has enough answers
 * (src/lib/response-time.ts; docs/directory.md, "Response figures"). The business page links
 * to the rule's explanation.
 */
import { RESPONSE_RULES_PATH, responseLine, type ResponseFigures } from "../../lib/response-time.ts";
import { Icon } from "../../views/Icon.tsx";

export function ResponseTime({
  figures,
  rulesLink = false,
  className = "",
  iconClass = "text-forest-500",
}: {
  figures: ResponseFigures;
  /** Adds "How we measure response", a link to the rule (the business page; a card stays short). */
  rulesLink?: boolean;
  className?: string;
  /** Color of the clock, to match the icons beside it. */
  iconClass?: string;
}) {
  const line = responseLine(figures);
  if (!line) return null;
  return (
    <span className={`inline-flex items-start gap-1.5 ${className}`}>
      <Icon name="clock" className={`mt-0.5 size-4 shrink-0 ${iconClass}`} />
      <span>
        <span data-testid="response-time">
          {line.rate}
          {line.time ? ` · ${line.time}` : ""}
          <span className="text-slate-600"> · {line.window}</span>
        </span>
        {rulesLink ? (
          <>
            {" "}
            <a className="link whitespace-nowrap" href={RESPONSE_RULES_PATH}>
              How we measure response
            </a>
          </>
        ) : null}
      </span>
    </span>
  );
}
