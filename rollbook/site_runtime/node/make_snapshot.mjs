// Makes a Pyodide memory snapshot with rollbook's engine already imported (run at site build).
//
//   node make_snapshot.mjs --pyodide DIR --out FILE [--wheel FILE]... [--import MODULE]...
//
// A snapshot is the interpreter's whole linear memory after start-up; a browser restores it
// with loadPyodide({_loadSnapshot}) instead of starting Python, which is most of Pyodide's
// start-up time. It is tied to the exact Pyodide build (Pyodide checks its build id) and to
// the wheels imported here, so it is rebuilt whenever either changes.
//
// Byte-identical output: everything nondeterministic that reaches the interpreter's memory
// during start-up is pinned for this process only. Wall-clock time (file timestamps the
// importers remember), the monotonic clock, the OS entropy Emscripten hands to Python and
// mimalloc, Math.random and the string hash seed. The visitor's browser gets real entropy
// again after restore: only the state captured here is fixed, and the worker reseeds the
// global `random` module after restoring (the engine itself only uses seeded Random objects).
//
// Prints one JSON line: {"bytes": N, "ms": startup_ms}.

import nodeCrypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";

import { mountWheels } from "../../assets/worker/wheels.js";
import { oneLine, startPyodide } from "./node_pyodide.mjs";

const { values } = parseArgs({
  options: {
    pyodide: { type: "string" },
    out: { type: "string" },
    wheel: { type: "string", multiple: true, default: [] },
    import: { type: "string", multiple: true, default: [] },
  },
});
if (!values.pyodide || !values.out) {
  console.error("usage: node make_snapshot.mjs --pyodide DIR --out FILE [--wheel F]... [--import M]...");
  process.exit(2);
}

// --- pin every source of nondeterminism before Pyodide is loaded -------------------------
const realNow = performance.now.bind(performance);
const started = realNow();
const EPOCH_MS = 315532800000; // 1980-01-01, the earliest time a zip entry can record
Date.now = () => EPOCH_MS;
let ticks = 0;
performance.now = () => (ticks += 0.001); // monotonic, advances by call count only
let lcg = 0x2545f4914f6cdd1dn;
nodeCrypto.randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    lcg = (lcg * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    bytes[i] = Number(lcg >> 56n);
  }
  return view;
};
Math.random = () => 0.5;

try {
  const pyodide = await startPyodide(values.pyodide, {
    _makeSnapshot: true,
    // The browser's default; otherwise node's script path would end up in sys.executable.
    _sysExecutable: "./this.program",
    env: { PYTHONHASHSEED: "0" },
  });

  // The same files at the same paths as the site's worker mounts them (wheels.js): a
  // restored interpreter finds its lazily imported modules there again.
  mountWheels(
    pyodide,
    values.wheel.map((wheel) => ({ name: basename(wheel), bytes: new Uint8Array(readFileSync(wheel)) })),
  );
  const modules = values.import.filter((name) => /^[A-Za-z_][\w.]*$/.test(name));
  if (modules.length !== values.import.length) {
    throw new Error("--import takes dotted module names only");
  }
  pyodide.runPython(
    [
      // The clock is frozen, so a directory's mtime cannot tell the importers that the wheels
      // just added files: drop the cached finders and their listings before and after
      // (restore starts afresh). Not importlib.invalidate_caches(): it imports
      // importlib.metadata, which the site's trimmed standard library leaves out.
      "import sys, gc",
      "sys.path_importer_cache.clear()",
      ...modules.map((name) => `import ${name}`),
      "sys.path_importer_cache.clear()",
      "gc.collect()",
    ].join("\n"),
  );

  const snapshot = pyodide.makeMemorySnapshot();
  writeFileSync(values.out, snapshot);
  console.log(JSON.stringify({ bytes: snapshot.length, ms: Math.round(realNow() - started) }));
} catch (error) {
  console.error(`make_snapshot: ${oneLine(error)}`);
  process.exitCode = 1;
}
