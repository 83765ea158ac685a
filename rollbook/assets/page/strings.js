// @ts-check
// The site's catalogues of reader-visible text, one per language the site is written in.
// This file is a stand-in: every build writes the real one over it (rollbook.site_runtime,
// from rollbook/language/strings/*.json and the author's `strings:`), so no text lives here.

/** @type {import("./i18n.js").StringsFile} */
export default { default: "en", catalogues: {} };
