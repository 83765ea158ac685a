// @ts-check
// The engine's sentences (dice errors, fight logs) of the site's catalogues, one per language
// the site is written in; said.js imports it, fetched the first time a reply holds one.
// This file is a stand-in: every build writes the real one over it (rollbook.site_runtime).

/** @type {import("./said.js").EngineStringsFile} */
export default { catalogues: {} };
