// @ts-check
// Material's instant navigation on any host and port.
//
// Material (9.x) instant-loads a link only when its URL is in the site's sitemap, after
// moving each sitemap URL onto the page's protocol and host name but keeping the sitemap's
// *port*. So it works only where `site_url` names the exact port the site is served on
// (`mkdocs serve` sets that itself); a built site previewed on another port, or a site built
// without `site_url`, falls back to full page loads, and every page load restarts the dice
// engine. (Without `site_url` MkDocs writes an empty sitemap, so Material never claims a
// link at all.) Here we claim the links Material leaves alone: the pages of the sitemap
// moved onto the page's whole origin, plus the pages of Material's primary navigation
// (MkDocs' own pages, on any site), and hand them to Material's own `location$` (the
// subject its click handler feeds), so the page swap, scrolling, history and `document$`
// are all still Material's. Links Material claimed itself arrive here `defaultPrevented`.

/** @type {Set<string> | null} */
let pages = null; // page URLs on this origin (no query, no hash); null until enabled

/** How many links this module handed to Material (a hook for tests). */
export const stats = { claims: 0 };

/**
 * Material's configuration of the page (its `#__config` JSON), or null.
 * @returns {{base?: string, features?: string[]} | null}
 */
function materialConfig() {
  const node = document.getElementById("__config");
  if (!node) return null;
  try {
    return JSON.parse(node.textContent || "");
  } catch {
    return null;
  }
}

/**
 * Page URLs of a sitemap, moved onto this page's origin (protocol, host name and port).
 * @param {string} xml
 * @param {URL | string} sitemapUrl
 */
export function sitemapPages(xml, sitemapUrl) {
  /** @type {Set<string>} */
  const found = new Set();
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  for (const loc of doc.querySelectorAll("url > loc")) {
    let url;
    try {
      url = new URL((loc.textContent || "").trim(), sitemapUrl);
    } catch {
      continue;
    }
    const here = new URL(url.pathname, location.origin);
    found.add(here.href);
  }
  return found;
}

/** Page URLs of Material's primary navigation (the site's pages, whatever its sitemap says). */
function navigationPages() {
  /** @type {Set<string>} */
  const found = new Set();
  const links = /** @type {NodeListOf<HTMLAnchorElement>} */ (
    document.querySelectorAll(".md-nav--primary a.md-nav__link[href]")
  );
  for (const link of links) {
    const url = new URL(link.href);
    if (url.origin === location.origin) found.add(new URL(url.pathname, location.origin).href);
  }
  return found;
}

/** @param {MouseEvent} event */
function claim(event) {
  const subject = window.location$;
  if (!pages || !subject || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return;
  const url = new URL(link.href);
  if (url.origin !== location.origin || url.pathname === location.pathname) return;
  if (!pages.has(new URL(url.pathname, location.origin).href)) return;
  event.preventDefault();
  stats.claims += 1;
  // What Material's own click handler does: remember where we were, then move on.
  history.replaceState({ x: scrollX, y: scrollY }, "");
  history.pushState(null, "", url);
  subject.next(url);
}

/** Start claiming site links for Material's instant navigation; once per document. */
export function enable() {
  if (pages !== null || location.protocol === "file:") return;
  const config = materialConfig();
  const subject = window.location$;
  if (!config || !(config.features || []).includes("navigation.instant")) return;
  if (!subject || typeof subject.next !== "function") return;
  const known = navigationPages();
  pages = known;
  const sitemap = new URL("sitemap.xml", new URL(config.base || ".", location.href));
  fetch(sitemap)
    .then((response) => (response.ok ? response.text() : ""))
    .then((xml) => {
      if (xml) for (const page of sitemapPages(xml, sitemap)) known.add(page);
    })
    .catch(() => {}); // no sitemap: the navigation's pages are enough
  document.addEventListener("click", claim);
}
