// @ts-check
// The engine worker's start-up faults, in sentences a reader can act on, and the wheels
// fetched and checked against the SHA-256 sums the manifest lists for them.
//
// The engine wheel is required: without it (missing, damaged, not the file the manifest
// names) the engine does not start, and says why. The icepool wheel serves exact odds
// only: without it plain dice still roll, and odds requests say they are unavailable.

import { sha256Hex } from "./sha256.js";

/** @typedef {import("./protocol.js").EngineManifest} EngineManifest */
/** @typedef {import("./protocol.js").WheelEntry} WheelEntry */

/** A start-up failure whose message is a sentence for the reader (no stack, no traceback). */
/**
 * A start-up failure: an English clause for the console, and the page catalogue's key
 * (and file name) that says it to the reader in the page's language.
 */
export class StartError extends Error {
  /**
   * @param {string} message
   * @param {string} [key]  catalogue key ("start.runtime"); "start.failed" when not given
   * @param {string} [file]
   */
  constructor(message, key = "start.failed", file = "") {
    super(message);
    this.key = key;
    this.file = file;
  }
}

/** @type {(buffer: ArrayBuffer) => string} */
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The lowercase hex SHA-256 of `bytes` (SubtleCrypto, else plain JavaScript).
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
export async function sha256(bytes) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return sha256Hex(bytes); // plain http on a host other than localhost
  return hex(await subtle.digest("SHA-256", bytes));
}

/**
 * The manifest's entry ({path, sha256}) naming wheel path `path`, and its label.
 * @param {EngineManifest} manifest
 * @param {string} path
 * @returns {{label: string | null, entry: Partial<WheelEntry> | null}}
 */
function entryOf(manifest, path) {
  for (const label of ["engine", "icepool"]) {
    const entry = /** @type {Partial<WheelEntry> | null | undefined} */ (manifest[label]);
    if (entry && typeof entry === "object" && entry.path === path) return { label, entry };
  }
  return { label: null, entry: null };
}

/**
 * Fetch and check every wheel of the manifest.
 * @param {EngineManifest} manifest
 * @param {URL} base  the manifest's URL, which the wheels' paths are relative to
 * @param {(url: URL) => Promise<ArrayBuffer>} fetchBytes
 * @returns {Promise<{wheels: {name: string, bytes: Uint8Array<ArrayBuffer>}[], oddsLost: string | null}>}
 *   oddsLost: why the odds library is missing (a clause), or null when it is there.
 * @throws {StartError} when a required wheel is missing or does not match.
 */
export async function loadWheels(manifest, base, fetchBytes) {
  /** @type {string[]} */
  const paths = Array.isArray(manifest.wheels) ? manifest.wheels.filter((w) => typeof w === "string") : [];
  /** @type {string | null} */
  let oddsLost = null;
  const loaded = await Promise.all(
    paths.map(async (path) => {
      const name = decodeURIComponent(path.split("/").pop() || "");
      const { label, entry } = entryOf(manifest, path);
      const optional = label === "icepool";
      let bytes;
      try {
        bytes = new Uint8Array(await fetchBytes(new URL(path, base)));
      } catch (error) {
        console.warn("rollbook engine:", error);
        if (optional) {
          oddsLost = "the odds library's file could not be loaded";
          return;
        }
        throw new StartError(`its file ${name} could not be loaded`, "start.wheel_missing", name);
      }
      const expected = entry && typeof entry.sha256 === "string" ? entry.sha256.toLowerCase() : null;
      if (expected) {
        const actual = await sha256(bytes);
        if (actual !== expected) {
          const why = `the file ${name} is not the one the site lists (its SHA-256 checksum differs)`;
          if (optional) {
            oddsLost = why;
            return;
          }
          throw new StartError(
            `${why}; the site may be part-way through an update, so try again later`,
            "start.wheel_changed",
            name,
          );
        }
      }
      return { name, bytes };
    }),
  );
  return { wheels: loaded.filter((wheel) => wheel !== undefined), oddsLost };
}

/**
 * Forget the odds library: a restored snapshot already holds icepool in memory, but
 * without its wheel its lazily imported parts would fail at random; odds then fail
 * cleanly, and `oddsReply` says why.
 * @param {import("pyodide").PyodideAPI} pyodide
 */
export function dropOdds(pyodide) {
  pyodide.runPython(
    [
      "import sys",
      "for name in [n for n in sys.modules if n == 'icepool' or n.startswith('icepool.')]:",
      "    del sys.modules[name]",
      "for path in [p for p in sys.path if '/icepool-' in p]:",
      "    sys.path.remove(path)",
      "    sys.path_importer_cache.pop(path, None)",
    ].join("\n"),
  );
}

/**
 * A bridge reply (JSON text), or the sentence saying odds are unavailable and why.
 * @param {string} json
 * @param {string | null} oddsLost
 */
export function oddsReply(json, oddsLost) {
  if (!oddsLost) return json;
  let kind = null;
  try {
    kind = JSON.parse(json).kind;
  } catch {
    return json;
  }
  if (typeof kind !== "string" || !/(ModuleNotFound|Import)Error$/.test(kind)) return json;
  const error = `Exact odds are unavailable on this page: ${oddsLost}. Plain rolls still work.`;
  return JSON.stringify({ error, kind: "OddsUnavailable" });
}
