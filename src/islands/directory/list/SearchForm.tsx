/**
 * The search box, "ZIP code or city" box, city shortcut and the near-me filters (radius,
 * service, minimum rating, sort, Open now, 24/7 emergency). A real GET form to /directory,
 * so before hydration (or without JavaScript) submitting loads /directory?q=&near=&... and
 * the island (or the server page) reads the state from the URL. Every control is
 * uncontrolled: hydration never resets what someone typed or chose while the page was
 * loading; the island reads the form (readDirectoryForm) and writes it back on Back/Forward
 * (fillDirectoryForm).
 */
import { type ChangeEvent, type FormEvent, type InputHTMLAttributes, type RefObject } from "react";
import {
  ALL_CITIES,
  DEFAULT_DIRECTORY_STATE,
  MAX_NEAR_LENGTH,
  MAX_SEARCH_LENGTH,
  MIN_RATING_OPTIONS,
  OPEN_NOW,
  RADIUS_OPTIONS,
  SORT_OPTIONS,
  normalizeDirectoryState,
  type DirectoryState,
} from "../../../lib/directory-url.ts";
import type { IconName } from "../../../lib/icons.ts";
import { CITIES, PRO_SERVICES } from "../../../lib/options.ts";
import { Icon } from "../../../views/Icon.tsx";

const control =
  "block min-h-12 w-full rounded-lg border border-slate-300 bg-white py-2.5 text-base text-slate-900 shadow-sm transition-colors placeholder:text-slate-500 hover:border-forest-400 focus:outline-2 focus:outline-offset-0 focus:outline-forest-500";
const label = "mb-1.5 block text-sm font-semibold text-forest-950";
const leadingIcon = "pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-forest-500";
const toggle =
  "inline-flex min-h-12 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 shadow-sm select-none hover:border-forest-400 has-checked:border-forest-600 has-checked:bg-forest-50 has-checked:text-forest-900 has-focus-visible:outline-2 has-focus-visible:outline-forest-500";

/** The state the form shows (page 1: any change to the filters starts over). */
export function readDirectoryForm(form: HTMLFormElement): DirectoryState {
  const data = new FormData(form);
  const get = (name: string) => String(data.get(name) ?? "");
  return normalizeDirectoryState({
    search: get("q"),
    near: get("near"),
    city: get("city"),
    radius: get("radius"),
    service: get("service"),
    minRating: get("minRating"),
    sort: get("sort"),
    open: get("open"),
    emergency: get("emergency"),
    page: 1,
  });
}

/** Shows `state` in the form (after Back/Forward or Clear Filters). */
export function fillDirectoryForm(form: HTMLFormElement, state: DirectoryState): void {
  const set = (name: string, value: string) => {
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = value !== "";
    else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) el.value = value;
  };
  set("q", state.search);
  set("near", state.near);
  set("city", state.city);
  set("radius", String(state.radius));
  set("service", state.service);
  set("minRating", String(state.minRating));
  set("sort", state.sort);
  set("open", state.open ? OPEN_NOW : "");
  set("emergency", state.emergency ? "1" : "");
}

interface Props {
  /** What the form shows first: the state of the page's URL (the server rendered that list). */
  state?: DirectoryState;
  formRef: RefObject<HTMLFormElement | null>;
  onSearchInput: (event: ChangeEvent<HTMLInputElement>) => void;
  /** A select or toggle changed: the island commits the whole form. */
  onFilterChange: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The API's message for the place box ("We couldn't find that ZIP code or city"). */
  nearError?: string;
  /** "Use my location": only offered once the island runs and the browser can locate. */
  onLocate?: () => void;
  locating?: boolean;
}

export function SearchForm({
  state = DEFAULT_DIRECTORY_STATE,
  formRef,
  onSearchInput,
  onFilterChange,
  onSubmit,
  nearError,
  onLocate,
  locating = false,
}: Props) {
  const d = state;
  return (
    <form
      ref={formRef}
      action="/directory"
      method="get"
      role="search"
      aria-label="Search the tree service directory"
      onSubmit={onSubmit}
      className="grid gap-4 rounded-card border border-forest-100 bg-white p-4 shadow-lift sm:grid-cols-2 sm:p-5 lg:grid-cols-[1fr_1.25fr_11rem_auto] lg:items-start"
      data-testid="directory-form"
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="directory-search" className={label}>
          Search tree services
        </label>
        <IconInput
          icon="search"
          id="directory-search"
          name="q"
          type="search"
          defaultValue={d.search}
          placeholder="Company, service or keyword"
          maxLength={MAX_SEARCH_LENGTH}
          autoComplete="off"
          onChange={onSearchInput}
        />
      </div>
      <div>
        <label htmlFor="directory-near" className={label}>
          ZIP code or city
        </label>
        <div className="flex gap-2">
          <PlaceInput
            id="directory-near"
            defaultValue={d.near}
            wrapper="min-w-0 flex-1"
            aria-invalid={nearError ? true : undefined}
            aria-describedby={nearError ? "directory-near-error" : undefined}
          />
          {onLocate && (
            <button
              type="button"
              className="btn-outline min-h-12 shrink-0 px-3"
              onClick={onLocate}
              disabled={locating}
              data-testid="use-my-location"
            >
              <Icon name="navigation" className="size-5" />
              <span className="sr-only sm:not-sr-only">{locating ? "Locating…" : "Use my location"}</span>
            </button>
          )}
        </div>
        {nearError && (
          <p
            id="directory-near-error"
            role="alert"
            className="mt-1.5 text-sm font-medium text-red-700"
            data-testid="near-error"
          >
            {nearError}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="directory-city" className={label}>
          City
        </label>
        <Select
          id="directory-city"
          name="city"
          defaultValue={d.city}
          options={CITY_CHOICES}
          onChange={onFilterChange}
          icon
        />
      </div>
      <button type="submit" className="btn-secondary min-h-12 lg:mt-7">
        <Icon name="search" className="size-5" />
        Search
      </button>

      <fieldset className="grid grid-cols-2 gap-3 border-t border-forest-100 pt-4 sm:col-span-2 sm:grid-cols-4 lg:col-span-4 lg:grid-cols-[repeat(4,minmax(0,11rem))_auto_auto] lg:items-end">
        <legend className="sr-only">Filters</legend>
        {FILTERS.map((f) => (
          <SelectField
            key={f.name}
            id={`directory-${f.id}`}
            label={f.label}
            name={f.name}
            defaultValue={String(d[f.name])}
            options={f.options}
            onChange={onFilterChange}
          />
        ))}
        <label className={toggle}>
          <input
            type="checkbox"
            name="open"
            value={OPEN_NOW}
            defaultChecked={d.open}
            onChange={onFilterChange}
            className="size-4 accent-forest-700"
          />
          <Icon name="clock" className="size-4 text-forest-600" />
          Open now
        </label>
        <label className={toggle}>
          <input
            type="checkbox"
            name="emergency"
            value="1"
            defaultChecked={d.emergency}
            onChange={onFilterChange}
            className="size-4 accent-forest-700"
          />
          24/7 emergency
        </label>
      </fieldset>
    </form>
  );
}

const SERVICE_CHOICES = [{ value: "", label: "Any service" }, ...PRO_SERVICES];
const CITY_CHOICES = [{ value: ALL_CITIES, label: "All Cities" }, ...CITIES];

type Choice = { value: string | number; label: string };

/** The filter selects, in the order they show; each `name` is both the query parameter and the state field. */
const FILTERS: readonly {
  id: string;
  label: string;
  name: "radius" | "service" | "minRating" | "sort";
  options: readonly Choice[];
}[] = [
  { id: "radius", label: "Within", name: "radius", options: RADIUS_OPTIONS },
  { id: "service", label: "Service", name: "service", options: SERVICE_CHOICES },
  { id: "rating", label: "Rating", name: "minRating", options: MIN_RATING_OPTIONS },
  { id: "sort", label: "Sort by", name: "sort", options: SORT_OPTIONS },
];

type SelectProps = { id: string; name: string; defaultValue: string; options: readonly Choice[]; onChange: () => void };

/** A labeled filter select. */
function SelectField({ label: text, ...props }: SelectProps & { label: string }) {
  return (
    <div>
      <label htmlFor={props.id} className={label}>
        {text}
      </label>
      <Select {...props} />
    </div>
  );
}

/** Native select: the platform picker is the most usable one on phones. */
function Select({ icon = false, options, ...props }: SelectProps & { icon?: boolean }) {
  return (
    <div className="relative">
      {icon && <Icon name="mapPin" className={leadingIcon} />}
      <select {...props} className={`${control} appearance-none pr-10 ${icon ? "pl-10" : "pl-3"}`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Icon
        name="chevronDown"
        className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500"
      />
    </div>
  );
}

type IconInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "className"> & {
  icon: IconName;
  /** Classes of the box around the input and its icon (its place in the form's layout). */
  wrapper?: string;
};

/** A text box with its icon inside on the left; a box marked aria-invalid gets a red border. */
function IconInput({ icon, wrapper, ...input }: IconInputProps) {
  return (
    <div className={wrapper ? `relative ${wrapper}` : "relative"}>
      <Icon name={icon} className={leadingIcon} />
      <input
        enterKeyHint="search"
        {...input}
        className={`${control} pr-3 pl-10${input["aria-invalid"] ? " border-red-600" : ""}`}
      />
    </div>
  );
}

/**
 * The "ZIP code or city" box. The Find Pros form (find-a-tree-service.astro) renders it
 * too, server-side only: both forms send `near` to /directory.
 */
export function PlaceInput(props: Omit<IconInputProps, "icon">) {
  return (
    <IconInput
      icon="mapPin"
      name="near"
      type="text"
      placeholder="e.g. 78664 or Katy, TX"
      maxLength={MAX_NEAR_LENGTH}
      autoComplete="postal-code"
      {...props}
    />
  );
}
