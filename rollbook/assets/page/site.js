// @ts-check
// Where this site is: its base URL (two sites on one origin keep apart by it) and the
// address of the page being read.

/**
 * The site's base URL: our assets live at `<base>/assets/rollbook/`, so two sites on one
 * origin (project pages of one account) have different bases.
 */
export const SITE_BASE = new URL("../../", import.meta.url).href;

/** The path of the site's base ("/" or "/rules/"): what keeps two sites on one origin apart. */
export const BASE_PATH = new URL(SITE_BASE).pathname;

/** This page's path (no query, no hash): the base for links back to a roll. */
export function pageUrl() {
  return `${location.origin}${location.pathname}`;
}
