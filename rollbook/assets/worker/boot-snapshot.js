// @ts-check
// Start-up: restore the Pyodide memory snapshot made at build time.
//
// The manifest lists `"snapshot": "snapshot-<hash>.bin"` when the site was built with one
// (rollbook/site_runtime/snapshot.py): the interpreter's memory with the engine already
// imported, so restoring it skips Python's start-up. It costs ~7.2 MB more (served packed
// by the build, zero pages left out and gzipped, whatever the host compresses), so a
// reader who asked to save data, or whose connection is slow, starts Pyodide the usual way.
// Numbers and trade-offs: docs/reference/performance.md.

/** @typedef {import("./protocol.js").EngineManifest} EngineManifest */

/**
 * The snapshot on its way: the memory to hand to loadPyodide, and when it is filled.
 * @typedef {{memory: Uint8Array | Promise<Uint8Array>, filled: Promise<Uint8Array>}} Snapshot
 */

/**
 * Whether this reader should download the snapshot.
 * @param {EngineManifest} manifest
 */
export function wantSnapshot(manifest) {
  if (!manifest.snapshot) return false;
  const connection = self.navigator?.connection;
  if (!connection) return true;
  return !connection.saveData && !/^(slow-2g|2g|3g)$/.test(connection.effectiveType || "");
}

/**
 * The helper worker that downloads and inflates the snapshot (unpack.js, run under the
 * name it checks), started before the manifest is read so that it has loaded by the time
 * it is needed. Null where a worker cannot start one.
 */
export function startUnpacker() {
  if (typeof Worker === "undefined") return null;
  try {
    const url = new URL("./unpack.js", import.meta.url);
    return new Worker(url, { type: "module", name: "rollbook-unpack" });
  } catch {
    return null;
  }
}

/**
 * Start getting the snapshot's memory; null when there is no snapshot or the reader should
 * not get it. `helper` is startUnpacker()'s worker, used once and then ended.
 *
 * Returns {memory, filled}: `memory` goes to loadPyodide as `_loadSnapshot`. When the
 * manifest gives the memory's size, it is a zero-filled array of that size at once, so
 * Pyodide sizes and instantiates its module while the file still downloads and inflates;
 * `filled` settles when the memory is in it, and Pyodide must not restore before that
 * (worker.js waits for it in createPyodideModule). Without the size, `memory` is the
 * promise of the whole memory, which Pyodide waits for itself.
 * @param {EngineManifest} manifest
 * @param {URL} base
 * @param {Worker | null} helper
 * @returns {Snapshot | null}
 */
export function startSnapshot(manifest, base, helper) {
  if (!wantSnapshot(manifest) || typeof manifest.snapshot !== "string") {
    if (helper) helper.terminate();
    return null;
  }
  const url = new URL(manifest.snapshot, base);
  const size = manifest.snapshot_bytes;
  const memory = typeof size === "number" && Number.isInteger(size) && size > 0 ? new Uint8Array(size) : null;
  const unpack = import("./unpack.js");
  const packed = elsewhere(helper, url).then(async (helped) => helped || (await unpack).download(url));
  const filled = Promise.all([packed, unpack]).then(([bytes, { expand }]) => expand(bytes, memory));
  return { memory: memory || filled, filled };
}

/**
 * The file inflated by the helper, so this thread stays free to feed Pyodide's
 * WebAssembly to the compiler. Null when there is no helper or it did not start (the
 * caller then does the work itself); rejects when the download or the inflating failed.
 * @param {Worker | null} helper
 * @param {URL} url
 * @returns {Promise<ArrayBuffer | null>}
 */
function elsewhere(helper, url) {
  if (!helper) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    helper.onmessage = ({ data }) => {
      helper.terminate();
      if (data.error) reject(new Error(data.error));
      else resolve(data.packed);
    };
    helper.onerror = (event) => {
      event.preventDefault();
      helper.terminate();
      resolve(null);
    };
    helper.postMessage({ url: url.href });
  });
}

/**
 * After a restore. The snapshot froze the build machine's state of Python's global
 * `random` generator, identical for every reader: reseed it from the browser's entropy.
 * (The engine itself only uses `random.Random` objects seeded per request.) Files written
 * before the snapshot are not in it, which is why the worker writes the wheels again:
 * modules imported lazily later (icepool, the rule systems) are read from them.
 * `snapshot` is what startSnapshot returned.
 * @param {import("pyodide").PyodideAPI} pyodide
 * @param {Snapshot} snapshot
 */
export function afterRestore(pyodide, snapshot) {
  pyodide.runPython("import random; random.seed()");
  // Pyodide keeps its options, so the snapshot's 31 MB would stay alive with the worker;
  // detaching the buffer (its bytes move to an empty new one) lets them go.
  snapshot.filled.then((memory) => {
    const buffer = /** @type {ArrayBuffer & {transfer?: (length: number) => ArrayBuffer}} */ (memory.buffer);
    return buffer.transfer?.(0);
  });
}
