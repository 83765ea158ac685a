// What the build's node scripts share (make_snapshot.mjs, compile_bytecode.mjs): starting
// a Pyodide distribution under node, and reporting a failure in one line.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Start the Pyodide in folder `dir` quietly (its stderr goes to ours); `options` are added
 * to loadPyodide's. No package comes from Pyodide's lock, but its `info` must match the
 * build's ABI, so the lock's info is passed without its packages.
 */
export async function startPyodide(dir, options = {}) {
  const pyodideDir = resolve(dir);
  const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
  const { info } = JSON.parse(readFileSync(`${pyodideDir}/pyodide-lock.json`, "utf8"));
  return loadPyodide({
    indexURL: `${pyodideDir}/`,
    lockFileContents: { info, packages: {} },
    stdout: () => {},
    stderr: (line) => console.error(line),
    ...options,
  });
}

/**
 * The last line of an error's message. Node prints an uncaught error with a line of
 * minified Pyodide source (and may cut it off when stderr is a pipe), so the scripts report
 * failures as `NAME: <this line>` instead.
 */
export function oneLine(error) {
  const lines = String((error && error.message) || error).trim().split("\n");
  return lines[lines.length - 1].trim();
}
