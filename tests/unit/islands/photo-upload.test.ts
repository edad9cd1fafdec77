// @vitest-environment happy-dom
/**
 * /owner/photos's script (src/scripts/photo-upload.ts) over the page's upload form as
 * PhotoManager.astro draws it, with the browser's decoder and canvas stubbed: a camera photo is
 * swapped for the smaller JPEG in the file input and the form posts as the no-JavaScript form; one
 * that cannot be made to fit gets the field's message and is not sent. The resize decisions
 * themselves are tests/unit/photo-resize.test.ts's.
 */
import { fireEvent, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_UPLOAD_BYTES, PHOTO_TEXT } from "../../../src/lib/photos.ts";

const MB = 1024 * 1024;

/** The page's upload form, new for each test (the script binds to the forms there at import). */
function drawPage() {
  document.body.innerHTML = `
    <form method="post" action="/owner/photos" enctype="multipart/form-data" data-photo-upload>
      <label for="photo">Add a photo
        <input id="photo" type="file" name="photo" accept="image/jpeg,image/png,image/webp" required>
      </label>
      <p id="photo-status" aria-live="polite" data-photo-status></p>
      <div><button type="submit">Upload photo</button></div>
    </form>`;
}

const form = () => document.querySelector("form")!;
const input = () => document.querySelector<HTMLInputElement>("#photo")!;
const status = () => document.querySelector("#photo-status")!;

function choose(file: File) {
  const picked = new DataTransfer();
  picked.items.add(file);
  input().files = picked.files;
  fireEvent.change(input());
}

let posted: ReturnType<typeof vi.fn<() => void>>;
/** Encoded JPEGs weigh this many bytes. */
let encoded = 900_000;

beforeEach(async () => {
  vi.stubGlobal(
    "createImageBitmap",
    vi.fn(async () => ({ width: 4032, height: 3024, close: vi.fn() })),
  );
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue({
    fillRect: vi.fn(),
    drawImage: vi.fn(),
  } as never);
  vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation((done, type) =>
    done(new Blob([new Uint8Array(encoded)], { type })),
  );
  posted = vi.fn<() => void>();
  vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(posted);
  // The script runs once, at import, over the page as it is.
  drawPage();
  vi.resetModules();
  await import("../../../src/scripts/photo-upload.ts");
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the owner's photo upload with JavaScript", () => {
  it("a 7 MB camera photo is swapped for a 2048 px JPEG under the limit and the form posts as it is", async () => {
    choose(new File([new Uint8Array(7 * MB)], "IMG_0412.JPG", { type: "image/jpeg" }));
    const submitted = fireEvent.submit(form());
    // The post waits for the smaller photo.
    expect(submitted).toBe(false);
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    const sent = input().files![0]!;
    expect([sent.name, sent.type, sent.size]).toEqual(["IMG_0412.jpg", "image/jpeg", 900_000]);
    expect(sent.size).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    expect(input().getAttribute("aria-invalid")).toBeNull();
  });

  it("a photo that fits goes as chosen", async () => {
    vi.stubGlobal(
      "createImageBitmap",
      vi.fn(async () => ({ width: 1600, height: 1200, close: vi.fn() })),
    );
    const chosen = new File([new Uint8Array(MB)], "yard.png", { type: "image/png" });
    choose(chosen);
    fireEvent.submit(form());
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    expect(input().files![0]).toBe(chosen);
  });

  it("one that cannot be made to fit: the field's message, focus on the field, nothing sent", async () => {
    encoded = MAX_UPLOAD_BYTES + 1;
    try {
      choose(new File([new Uint8Array(7 * MB)], "huge.jpg", { type: "image/jpeg" }));
      fireEvent.submit(form());
      await waitFor(() => expect(status().textContent).toBe(PHOTO_TEXT.tooLargeToAdd));
      expect(input().getAttribute("aria-invalid")).toBe("true");
      expect(input().getAttribute("aria-describedby")).toBe("photo-status");
      expect(document.activeElement).toBe(input());
      expect(posted).not.toHaveBeenCalled();
      // Choosing another photo clears the message.
      choose(new File([new Uint8Array(10)], "small.jpg", { type: "image/jpeg" }));
      expect(status().textContent).toBe("");
    } finally {
      encoded = 900_000;
    }
  });
});
