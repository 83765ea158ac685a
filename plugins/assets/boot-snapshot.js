// Start-up lever (issue 6): restore the Pyodide memory snapshot made at build time.
//
// The manifest lists `"snapshot": "snapshot-<hash>.bin"` when the site was built with one
// (plugins/sitewide/snapshot.py): the interpreter's memory with the engine already
// imported, so restoring it skips Python's start-up. It costs ~6.8 MB more (served gzipped
// by the build, whatever the host compresses), so a reader who asked to save data, or
// whose connection is slow, starts Pyodide the usual way.
// Numbers and trade-offs: docs/reference/performance.md.

/** Whether this reader should download the snapshot. */
export function wantSnapshot(manifest) {
  if (!manifest.snapshot) return false;
  const connection = self.navigator && self.navigator.connection;
  if (!connection) return true;
  return !connection.saveData && !/^(slow-2g|2g|3g)$/.test(connection.effectiveType || "");
}

/**
 * Extra loadPyodide() options: the snapshot's bytes, requested now so they download while
 * Pyodide's own files do. Empty when there is no snapshot or the reader should not get it.
 */
export function snapshotOptions(manifest, base, fetchBytes) {
  if (!wantSnapshot(manifest)) return {};
  return { _loadSnapshot: fetchBytes(new URL(manifest.snapshot, base)).then(gunzipped) };
}

/**
 * The snapshot's memory. The build serves it gzip-compressed (hosts rarely compress binary
 * files); a host or server that already undid the gzip hands over the memory itself, which
 * never starts with gzip's two magic bytes (a snapshot starts with "\0snp").
 */
export async function gunzipped(buffer) {
  const bytes = new Uint8Array(buffer);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * After a restore. The snapshot froze the build machine's state of Python's global
 * `random` generator, identical for every reader: reseed it from the browser's entropy.
 * (The engine itself only uses `random.Random` objects seeded per request.) Files written
 * before the snapshot are not in it, which is why the worker writes the wheels again:
 * modules imported lazily later (icepool, the rule systems) are read from them.
 */
export function afterRestore(pyodide) {
  pyodide.runPython("import random; random.seed()");
}
