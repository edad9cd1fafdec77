/**
 * /owner/profile: one plain form (works without JavaScript) for what an owner says about the
 * business: description, services, areas, website, phone, weekly hours, holiday closures and
 * other closed days. A valid post goes through applyListingChange (stored, recorded for
 * /admin, cache purged) and answers 303 back to the page with a notice; an invalid one changes
 * nothing and goes back with the form as posted and each message for its field (422). The
 * page is src/pages/owner/profile.astro; this file reads its form and takes its posts.
 */
import { CLOSING_HOLIDAYS, closingHolidaysOf } from "../../../src/lib/holidays.ts";
import { daySpans, isOpen247 } from "../../../src/lib/hours.ts";
import { WEEKDAYS } from "../../../src/lib/options.ts";
import { ProfileInput, profileFormInput, profilePatch } from "../../../src/lib/owner-profile/form.ts";
import { DAY_MODES, DAY_MODE_LABELS, dayFields, keepUntouchedDays } from "../../../src/lib/owner-profile/hours.ts";
import {
  CLOSED_DATE_ROWS,
  HOLIDAYS_IGNORED,
  PROFILE_SAVED,
  splitDayNote,
} from "../../../src/lib/owner-profile/messages.ts";
import { sameServices, serviceChoices, serviceKey } from "../../../src/lib/owner-profile/services.ts";
import type { ProfileFormView } from "../../../src/lib/owner-views.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { applyListingChange, type ListingPatch } from "./changes.ts";
import {
  INVALID_STATUS,
  asForm,
  backToPage,
  ownerEndpoint,
  postedValues as formValues,
  seeOwnerPage,
  type FlashValues,
} from "./page.ts";

export const PROFILE_ROUTE = "/owner/profile";
export const PROFILE_INVALID = "Please check the fields marked below. Nothing was saved.";
export const PROFILE_UNCHANGED = "Nothing changed.";

const DAY_LABEL = (d: string) => d[0]!.toUpperCase() + d.slice(1);
const MODE_LABELS = DAY_MODE_LABELS;

/** What the form shows: the business as stored, or the post as sent (after an error). */
export interface ProfileValues {
  description: string;
  services: string[];
  serviceAreas: string;
  website: string;
  phone: string;
  hours: Record<string, { mode: string; open: string; close: string }>;
  byAppointment: boolean;
  closedHolidays: string[];
  closedDates: { date: string; note?: string }[];
}

export function valuesOf(b: Business): ProfileValues {
  return {
    description: b.description,
    services: b.services,
    serviceAreas: b.serviceAreas.join("\n"),
    website: b.website ?? "",
    phone: b.phone ?? "",
    hours: Object.fromEntries(WEEKDAYS.map((d) => [d, dayFields(b.businessHours[d])])),
    byAppointment: b.byAppointment === true,
    closedHolidays: closingHolidaysOf(b),
    closedDates: b.closedDates ?? [],
  };
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function postedValues(input: Record<string, unknown>): ProfileValues {
  const hours = (input.hours ?? {}) as Record<string, { mode: string; open: string; close: string }>;
  return {
    description: str(input.description),
    services: strs(input.services),
    serviceAreas: str(input.serviceAreas),
    website: str(input.website),
    phone: str(input.phone),
    hours,
    byAppointment: input.byAppointment === true,
    closedHolidays: strs(input.closedHolidays),
    closedDates: (Array.isArray(input.closedDates) ? input.closedDates : []) as { date: string; note?: string }[],
  };
}

const choice = (name: string, checked: boolean) => ({ value: name, label: name, checked });

/** The form as the page draws it, from the business as stored or the post as sent (after an error). */
export function profileFormView(business: Business, v: ProfileValues, errors: FieldErrors = {}): ProfileFormView {
  const ticked = new Set(v.services.map(serviceKey));
  // As the public page reads it (hours.ts): holidays never close these listings.
  const holidaysIgnored = business.emergency247
    ? HOLIDAYS_IGNORED.emergency247
    : isOpen247(business.businessHours)
      ? HOLIDAYS_IGNORED.open247
      : undefined;
  return {
    action: PROFILE_ROUTE,
    description: v.description,
    services: serviceChoices([...business.services, ...v.services]).map((s) => choice(s, ticked.has(serviceKey(s)))),
    serviceAreas: v.serviceAreas,
    website: v.website,
    phone: v.phone,
    days: WEEKDAYS.map((d) => {
      const day = v.hours[d] ?? { mode: "closed", open: "", close: "" };
      const stored = business.businessHours[d];
      return {
        day: d,
        label: DAY_LABEL(d),
        mode: day.mode,
        open: day.open,
        close: day.close,
        ...(stored && daySpans(stored).length > 1 ? { splitNote: splitDayNote(stored) } : {}),
      };
    }),
    dayModes: DAY_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] })),
    byAppointment: v.byAppointment,
    holidays: CLOSING_HOLIDAYS.map((h) => choice(h, v.closedHolidays.includes(h))),
    ...(holidaysIgnored ? { holidaysIgnored } : {}),
    closedDates: [
      ...v.closedDates.map((row) => ({ date: row.date, note: row.note ?? "" })),
      ...Array.from({ length: CLOSED_DATE_ROWS }, () => ({ date: "", note: "" })),
    ],
    errors,
  };
}

/** The page's form: as stored, or as last posted with its messages when a flash brings them. */
export function profileView(
  business: Business,
  flash: { values: FlashValues; errors: FieldErrors } | null,
): ProfileFormView {
  if (!flash) return profileFormView(business, valuesOf(business));
  return profileFormView(business, postedValues(profileFormInput(asForm(flash.values))), flash.errors);
}

export interface OwnerProfileDeps extends EndpointDeps {
  purge?: Purge;
}

export function ownerProfileHandler(deps: OwnerProfileDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] profile",
      body: { urlencoded: 32 * KB },
      rateLimit: { name: "owner-profile", perMinute: () => 30 },
    },
    deps,
    async (call, { business, session }) => {
      const form = call.body!.value;
      const input = profileFormInput(form);
      const parsed = ProfileInput.safeParse(input);
      if (!parsed.success)
        return backToPage(call.store, {
          path: PROFILE_ROUTE,
          status: INVALID_STATUS,
          values: formValues(form),
          errors: fieldErrors(parsed.error),
          problem: PROFILE_INVALID,
        });
      const patch: ListingPatch = profilePatch(parsed.data);
      patch.businessHours = keepUntouchedDays(
        business.businessHours,
        input.hours as Parameters<typeof keepUntouchedDays>[1],
        patch.businessHours ?? {},
      );
      // The defaults, stated: not a change (absent holidays = all of them; no closed days).
      if (!business.closedHolidays && patch.closedHolidays?.length === CLOSING_HOLIDAYS.length)
        delete patch.closedHolidays;
      if (!business.closedDates && patch.closedDates?.length === 0) delete patch.closedDates;
      if (!business.byAppointment && patch.byAppointment === null) delete patch.byAppointment;
      // The form lists services in its own order (the site's first): the same set is no change.
      if (patch.services && sameServices(patch.services, business.services)) delete patch.services;
      const { change } = await storeCall(
        () =>
          applyListingChange(
            call.store,
            {
              businessId: business.id,
              current: business,
              actor: { kind: "owner", email: session.email },
              summary: "Profile and hours",
              patch,
            },
            call.now(),
            purge,
          ),
        { step: "save" },
      );
      console.info(`[owner] profile ${business.id}: ${change ? `change ${change.id}` : "no change"}`);
      return seeOwnerPage(call.store, PROFILE_ROUTE, change ? PROFILE_SAVED : PROFILE_UNCHANGED);
    },
  );
}
