/** The islands' twin of components/Icon.astro: same outlines, same attributes. */
import { ICON_PATHS, type IconName } from "../lib/icons.ts";

interface Props {
  name: IconName;
  className?: string;
  /** Accessible name; without it the icon is decorative. */
  label?: string;
}

export function Icon({ name, className = "size-5", label }: Props) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={label ? undefined : "true"}
      role={label ? "img" : undefined}
      aria-label={label}
      focusable="false"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
