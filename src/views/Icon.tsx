/** The islands' twin of components/Icon.astro: the same masked span (src/integrations/icons.ts). */
import type { IconName } from "../lib/icons.ts";

interface Props {
  name: IconName;
  className?: string;
  /** Accessible name; without it the icon is decorative. */
  label?: string;
}

export function Icon({ name, className = "size-5", label }: Props) {
  return (
    <span
      className={`icon icon-${name} ${className}`}
      aria-hidden={label ? undefined : "true"}
      role={label ? "img" : undefined}
      aria-label={label}
    />
  );
}
