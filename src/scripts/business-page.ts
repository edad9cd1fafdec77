/**
 * The business page's only script before the visitor interacts: a broken photo hides so
 * that its placeholder shows (CSS cannot tell a failed image, and the page's CSP allows no
 * inline event handlers). No imports, so Astro inlines it: the page downloads no script of
 * its own.
 */
function hideBroken(img: HTMLImageElement) {
  img.hidden = true;
}

// An image can fail before this module runs (it is deferred), so check what already finished.
for (const img of document.querySelectorAll<HTMLImageElement>("img[data-fallback]")) {
  if (img.complete && img.naturalWidth === 0) hideBroken(img);
  else img.addEventListener("error", () => hideBroken(img), { once: true });
}
