// Runs Python code in Pyodide under node with wheels unpacked; prints what the code prints.
//   node run_py.mjs --pyodide DIR [--wheel FILE]... --code FILE
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    pyodide: { type: "string" },
    wheel: { type: "string", multiple: true, default: [] },
    code: { type: "string" },
  },
});
const dir = resolve(values.pyodide);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const py = await loadPyodide({ indexURL: `${dir}/`, stdout: (line) => console.log(line) });
const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
for (const wheel of values.wheel) {
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
}
py.runPython("import importlib; importlib.invalidate_caches()");
py.runPython(readFileSync(values.code, "utf8"));
