// Compiles Python sources to bytecode with the very interpreter a site's readers run (run at
// site build and at `make dist`).
//
//   node compile_bytecode.mjs --pyodide DIR --in FILE --out FILE
//
// IN is JSON: {"packages": [{"label": L, "optimize": 0|1|2, "files": {PATH: BASE64}}]}.
// OUT gets {"packages": {L: {PATH: BASE64}}}, where PATH is each source's path and the value
// is the bytes of its .pyc. Pyodide's own CPython compiles them, so the bytecode's magic
// number is the one its importer accepts; no host Python of that version is needed.
//
// The .pyc files are hash-based and unchecked (PEP 552): they carry no timestamp, and the
// importer never looks for the source (there is none beside them). Column positions are
// left out (PYTHONNODEBUGRANGES), as `python -X no_debug_ranges` does: tracebacks keep
// their line numbers, and the files are about a fifth smaller. String hashing is pinned
// (PYTHONHASHSEED=0), so sets of constants marshal in one order: same input, same bytes.

import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { oneLine, startPyodide } from "./node_pyodide.mjs";

const { values } = parseArgs({
  options: { pyodide: { type: "string" }, in: { type: "string" }, out: { type: "string" } },
});
if (!values.pyodide || !values.in || !values.out) {
  console.error("usage: node compile_bytecode.mjs --pyodide DIR --in FILE --out FILE");
  process.exit(2);
}

const COMPILE = `
import base64, json
import importlib.util
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_all(text):
    out = {}
    for package in json.loads(text)["packages"]:
        done = out[package["label"]] = {}
        for path in sorted(package["files"]):
            source = base64.b64decode(package["files"][path])
            code = compile(source, path, "exec", dont_inherit=True, optimize=package["optimize"])
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
            done[path] = base64.b64encode(pyc).decode()
    return json.dumps({"packages": out}, sort_keys=True)
`;

try {
  const pyodide = await startPyodide(values.pyodide, {
    env: { PYTHONHASHSEED: "0", PYTHONNODEBUGRANGES: "1" },
  });
  const namespace = pyodide.globals.get("dict")();
  pyodide.runPython(COMPILE, { globals: namespace });
  const compileAll = namespace.get("compile_all");
  writeFileSync(values.out, compileAll(readFileSync(values.in, "utf8")));
} catch (error) {
  console.error(`compile_bytecode: ${oneLine(error)}`);
  process.exit(1);
}
