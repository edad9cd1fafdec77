/**
 * Client-side checks for the "Get Multiple Quotes Fast" form. They run the very schema the
 * function runs (FindProsRequest), so a message shown here is the message the server would
 * send back; the photo is checked separately because it never enters the JSON payload. Its size
 * is not checked here: a photo too large to send is made smaller first (preparePhoto in
 * src/lib/photo-resize.ts, when the form is sent), and only one that cannot be gets
 * PHOTO_TOO_LARGE.
 */
import { FIND_PROS_FORM, formValuesToPayload } from "../../lib/forms/fields.ts";
import { FindProsRequest, MESSAGES, fieldErrors, type FieldErrors } from "../../lib/schemas/forms.ts";

/** The endpoint's message for a file that is not an image. */
export const PHOTO_MESSAGE = MESSAGES.photo;
/** The endpoint's message for a photo over the limit (and this page's, when it cannot make it smaller). */
export const PHOTO_TOO_LARGE = MESSAGES.photoTooLarge;

/** A file input with nothing chosen still submits an empty, nameless File. */
export function chosenFile(value: FormDataEntryValue | null): File | undefined {
  return value instanceof File && (value.size > 0 || value.name !== "") ? value : undefined;
}

/** Message for a file that is not an image, or undefined when there is none or it is one. */
export function photoError(value: FormDataEntryValue | null): string | undefined {
  const file = chosenFile(value);
  if (!file) return undefined;
  return file.type.startsWith("image/") ? undefined : PHOTO_MESSAGE;
}

/** Text entries only: files are validated by photoError and sent as they are. */
export function textEntries(data: FormData): [string, string][] {
  return [...data.entries()].flatMap(([key, value]) =>
    typeof value === "string" ? [[key, value] as [string, string]] : [],
  );
}

/** Every field's first problem, keyed by field name; empty when the form can be sent. */
export function validateFindPros(data: FormData): FieldErrors {
  const result = FindProsRequest.safeParse(formValuesToPayload(FIND_PROS_FORM, textEntries(data)));
  const errors: FieldErrors = result.success ? {} : fieldErrors(result.error);
  const photo = photoError(data.get("photo"));
  if (photo) errors.photo = photo;
  return errors;
}

/** The first field with an error, in the order the form shows them (focus goes there). */
export function firstInvalid(errors: FieldErrors): string | undefined {
  return FIND_PROS_FORM.fields.find((f) => errors[f.name])?.name;
}
