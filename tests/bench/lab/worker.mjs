// Lab worker for the start-up benchmark: one way of making the engine ready per `mode`.
//   plain     loadPyodide (fetches the lock), unpack the wheels, import the engine
//   lock      the same with lockFileContents (no lock fetch)
//   snapshot  restore the build-time memory snapshot, unpack the wheels again (lazy imports)
// Replies {type: "ready", ms, importMs} then answers {type: "request", id, json}.
const t0 = performance.now();
const marks = { origin: performance.timeOrigin };
let handle = null;

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function init({ mode, pyodide: dir, wheels, snapshot, lockInfo }) {
  const wheelBytes = Promise.all(wheels.map(bytes));
  const { loadPyodide } = await import(`${dir}pyodide.mjs`);
  marks.imported = performance.now() - t0;
  const options = { indexURL: dir, stdout: () => {}, stderr: () => {} };
  if (mode !== "plain") options.lockFileContents = { info: lockInfo, packages: {} };
  if (mode === "snapshot") options._loadSnapshot = bytes(snapshot);
  const py = await loadPyodide(options);
  marks.loaded = performance.now() - t0;
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of await wheelBytes) py.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  const t1 = performance.now();
  marks.unpacked = t1 - t0;
  // After a restore the global RNG would replay the build's state: reseed it from the browser.
  if (mode === "snapshot") py.runPython("import random; random.seed()");
  py.runPython("import rollbook.engine.bridge, rollbook.engine.dice, rollbook.engine.tables");
  handle = py.pyimport("rollbook.engine.bridge").handle_json;
  return { importMs: performance.now() - t1 };
}

self.onmessage = async ({ data }) => {
  if (data.type === "init") {
    try {
      const { importMs } = await init(data);
      self.postMessage({ type: "ready", ms: performance.now() - t0, importMs, marks });
    } catch (error) {
      self.postMessage({ type: "failed", error: String(error && error.stack || error) });
    }
  } else if (data.type === "request") {
    self.postMessage({ type: "reply", id: data.id, json: handle(data.json) });
  }
};
