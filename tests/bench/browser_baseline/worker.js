// Plain Pyodide: loadPyodide (its own lock fetch), unpackArchive of the wheels, import.
let handle = null;
self.onmessage = async ({ data }) => {
  if (data.type === "init") {
    try {
      const manifestUrl = new URL(data.manifest);
      const manifest = await (await fetch(manifestUrl)).json();
      const dir = new URL(manifest.pyodide.replace(/\/?$/, "-plain/"), manifestUrl);
      const { loadPyodide } = await import(new URL("pyodide.mjs", dir).href);
      const pyodide = await loadPyodide({ indexURL: dir.href });
      const site = pyodide.runPython("import site; site.getsitepackages()[0]");
      for (const wheel of manifest.wheels) {
        const bytes = await (await fetch(new URL(wheel, manifestUrl))).arrayBuffer();
        pyodide.unpackArchive(bytes, "wheel", { extractDir: site });
      }
      handle = pyodide.pyimport("rollbook.engine.bridge").handle_json;
      self.postMessage({ type: "ready" });
    } catch (error) {
      self.postMessage({ type: "failed", error: String(error) });
    }
  } else if (data.type === "request") {
    self.postMessage({ type: "reply", id: data.id, json: handle(data.json) });
  }
};
