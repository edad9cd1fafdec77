/**
 * Photo uploads, written once: how large a photo and a whole post may be (the functions refuse
 * more, the forms say so), how a page with JavaScript shrinks a camera photo before sending it
 * (photo-resize.ts), and what a person is told when a photo is too large.
 *
 * Why 4 MB: Netlify hands a function at most 6 MB of buffered request, and a multipart body
 * (binary) travels in it base64-encoded, 4 bytes for every 3: about 4.5 MB of body reaches a
 * function; a longer one Netlify refuses itself, with its own error, before any code of ours
 * runs. The largest body a function reads (MAX_BODY_BYTES) stays under that with room for the
 * request's headers, and a photo (MAX_UPLOAD_BYTES) leaves room in it for the form's other
 * fields, so a photo a little over the limit still reaches the function and the form comes back
 * with what was typed and the photo's message. A 12 MP phone photo (5-8 MB) is larger: with
 * JavaScript the page makes it smaller first; without, the form states the limit.
 */

export const KB = 1024;
export const MB = 1024 * KB;

/** What Netlify buffers of one function request (the event, headers included). */
export const NETLIFY_BUFFERED_REQUEST_BYTES = 6_000_000;

/** One photo as sent: what the functions take and what the forms say. */
export const MAX_UPLOAD_BYTES = 4 * MB;

/**
 * The largest body any function reads (the photo forms' posts): base64-encoded it is 5.94 MB,
 * under NETLIFY_BUFFERED_REQUEST_BYTES with the headers. `npm start` refuses a longer one before
 * reading it, as Netlify does.
 */
export const MAX_BODY_BYTES = 4 * MB + 256 * KB;

/** "4 MB". */
export const MAX_UPLOAD_LABEL = `${MAX_UPLOAD_BYTES / MB} MB`;

/** How the browser shrinks a photo before sending it (photo-resize.ts). */
export const RESIZE = {
  /** The longest side first tried; the owner's page stores 1600 px, so nothing is lost there. */
  maxSide: 2048,
  /** Never smaller than this on the longest side: past it the photo is refused instead. */
  minSide: 640,
  /** JPEG quality first tried, lowered by `qualityStep` down to `minQuality` before the size shrinks. */
  quality: 0.85,
  qualityStep: 0.15,
  minQuality: 0.55,
  /** Each smaller try's longest side, as a share of the one before. */
  sideStep: 0.75,
  type: "image/jpeg",
} as const;

const RETRY = "phones can share a smaller copy of a photo, or take a screenshot of it";

export const PHOTO_TEXT = {
  /** The find-pros form's photo label. */
  label: `Photo (optional, up to ${MAX_UPLOAD_LABEL})`,
  /** Field message: not an image. */
  notImage: "Please choose a photo (JPEG, PNG, WebP, GIF or HEIC)",
  /** Field message: larger than the limit, and the page could not make it smaller (or had no JavaScript). */
  tooLarge: `This photo is larger than ${MAX_UPLOAD_LABEL}. Choose a smaller one (${RETRY}), or send the form without it.`,
  /** The owner's photos: larger than the limit (the photo is the form's only field). */
  tooLargeToAdd: `A photo can be at most ${MAX_UPLOAD_LABEL}. Nothing was added. Choose a smaller one (${RETRY}) and upload that.`,
  /** While the page makes a photo smaller (with JavaScript). */
  preparing: "Making your photo smaller to send...",
  /** A whole post too large to read: nothing of it was kept. */
  tooLargeToSend: `Your photo is too large to send: a photo can be at most ${MAX_UPLOAD_LABEL}. Nothing was sent. Choose a smaller photo (${RETRY}) and send the form again.`,
  /** The page `npm start` answers a browser's too-large form post with (before reading it). */
  pageTitle: "Your photo is too large to send",
  /** How to go back to the form with what was typed. */
  goBack: "Go back with your browser's Back button: what you typed is usually still there.",
} as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The whole page for a browser's form post refused as too large before it was read (no
 * JavaScript, or a browser that could not shrink the photo): what happened, the limit and how
 * to retry. Plain HTML, no script or style, so it needs nothing but itself.
 */
export function photoTooLargePage(): string {
  const title = escapeHtml(PHOTO_TEXT.pageTitle);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${escapeHtml(PHOTO_TEXT.tooLargeToSend)}</p>
<p>${escapeHtml(PHOTO_TEXT.goBack)}</p>
<p><a href="/">Home page</a></p>
</main>
</body>
</html>
`;
}
