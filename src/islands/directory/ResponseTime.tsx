/**
 * "Usually responds within 2 hours" with a clock, on the directory cards and the business
 * page; nothing until the business has a figure (docs/directory.md, "Response time").
 */
import { responseTimeLabel } from "../../lib/response-time.ts";
import { Icon } from "../../views/Icon.tsx";

export function ResponseTime({
  minutes,
  className = "",
  iconClass = "text-forest-500",
}: {
  minutes?: number;
  className?: string;
  /** Colour of the clock, to match the icons beside it. */
  iconClass?: string;
}) {
  if (minutes === undefined) return null;
  return (
    <span className={`inline-flex items-center gap-1.5 ${className}`} data-testid="response-time">
      <Icon name="clock" className={`size-4 shrink-0 ${iconClass}`} />
      {responseTimeLabel(minutes)}
    </span>
  );
}
