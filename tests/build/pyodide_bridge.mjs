// Runs bridge requests inside Pyodide under node, the way the site's worker does.
//
//   node pyodide_bridge.mjs --pyodide DIR [--stdlib FILE] [--wasm FILE] --wheel FILE... < requests.json
//
// Prints {"replies": [reply JSON text...], "modules": [sys.modules names], "startup": [names
// imported by Pyodide's own start-up]}. --stdlib and --wasm replace the distribution's
// python_stdlib.zip and pyodide.asm.wasm (a site's trimmed zip, a decompressed wasm).

import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { mountWheels } from "../../rollbook/assets/worker/wheels.js";

const { values } = parseArgs({
  options: {
    pyodide: { type: "string" },
    stdlib: { type: "string" },
    wheel: { type: "string", multiple: true, default: [] },
  },
});
const dir = resolve(values.pyodide);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const { info } = JSON.parse(readFileSync(`${dir}/pyodide-lock.json`, "utf8"));
const options = {
  indexURL: `${dir}/`,
  lockFileContents: { info, packages: {} },
  stdout: () => {},
  stderr: (line) => console.error(line),
};
if (values.stdlib) options.stdLibURL = resolve(values.stdlib);
const pyodide = await loadPyodide(options);
const startup = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
mountWheels(
  pyodide,
  values.wheel.map((w) => ({ name: basename(w), bytes: new Uint8Array(readFileSync(w)) })),
);
const handle = pyodide.pyimport("rollbook.engine.bridge").handle_json;
const requests = JSON.parse(readFileSync(0, "utf8"));
const replies = requests.map((request) => handle(JSON.stringify(request)));
const modules = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
console.log(JSON.stringify({ replies, modules, startup }));
