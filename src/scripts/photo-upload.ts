/**
 * /owner/photos with JavaScript: the chosen photo is made small enough to send before the form
 * posts (src/lib/photo-resize.ts), so a camera photo larger than a function may receive is
 * taken. The form itself stays the no-JavaScript form: the smaller photo replaces the chosen
 * file in the input and the form posts as it would have, to the same answer. A photo that
 * cannot be made to fit gets the field's message and is not sent. Without JavaScript (or
 * DataTransfer), the photo goes as chosen and the server says when it is too large.
 */
import { preparePhoto } from "../lib/photo-resize.ts";
import { MAX_UPLOAD_BYTES, PHOTO_TEXT } from "../lib/photos.ts";

/** The form's message under the file input: the field's own problem, announced with it. */
function show(input: HTMLInputElement, status: HTMLElement, message: string, problem: boolean) {
  status.textContent = message;
  status.classList.toggle("text-red-700", problem);
  if (problem) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", status.id);
    input.focus();
  } else {
    input.removeAttribute("aria-invalid");
  }
}

/** The input holding `file` instead of what was chosen; false when this browser cannot. */
function replaceFile(input: HTMLInputElement, file: File): boolean {
  try {
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    return input.files?.length === 1;
  } catch {
    return false;
  }
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-photo-upload]")) {
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  const status = form.querySelector<HTMLElement>("[data-photo-status]");
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!input || !status) continue;
  const accept = (input.accept || "").split(",").map((t) => t.trim().toLowerCase());
  let busy = false;

  input.addEventListener("change", () => show(input, status, "", false));
  form.addEventListener("submit", (event) => {
    const file = input.files?.[0];
    if (!file) return; // the browser's own "required" says so
    event.preventDefault();
    if (busy) return;
    busy = true;
    if (button) button.disabled = true;
    show(input, status, PHOTO_TEXT.preparing, false);
    void preparePhoto(file, { accept })
      .then((prepared) => {
        if (prepared.kind === "too-large") {
          show(input, status, PHOTO_TEXT.tooLargeToAdd, true);
          return;
        }
        // Cannot swap the file in this browser: the photo goes as chosen when it fits, else not at all.
        if (prepared.kind === "resized" && !replaceFile(input, prepared.file) && file.size > MAX_UPLOAD_BYTES) {
          show(input, status, PHOTO_TEXT.tooLargeToAdd, true);
          return;
        }
        show(input, status, "", false);
        // submit() fires no submit event: the post goes as the no-JavaScript form's.
        form.submit();
      })
      .finally(() => {
        busy = false;
        if (button) button.disabled = false;
      });
  });
}
