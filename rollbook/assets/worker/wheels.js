// @ts-check
// Where the engine's Python finds its code: each wheel is written as one zip file under
// WHEEL_DIR and put on sys.path (Python imports from zips; writing one file costs well
// under a millisecond, where unpacking took 50-200 ms of start-up). The site's worker
// (worker.js) and the build's snapshot script (rollbook/site_runtime/node/make_snapshot.mjs) both
// call this, so a restored snapshot finds the modules it has not imported yet at the very
// paths it had them on.

const WHEEL_DIR = "/lib/rollbook";

/**
 * Write `wheels` ([{name, bytes}]) into Pyodide's file system and put them on sys.path.
 * @param {import("pyodide").PyodideAPI} pyodide
 * @param {Array<{name: string, bytes: Uint8Array<ArrayBuffer>}>} wheels
 */
export function mountWheels(pyodide, wheels) {
  pyodide.FS.mkdirTree(WHEEL_DIR);
  const paths = wheels.map(({ name, bytes }) => {
    const path = `${WHEEL_DIR}/${name}`;
    pyodide.FS.writeFile(path, bytes);
    return path;
  });
  pyodide.runPython(
    `import sys\nfor path in reversed(${JSON.stringify(paths)}):\n` +
      "    if path not in sys.path: sys.path.insert(0, path)",
  );
}
