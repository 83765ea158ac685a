// Baseline for bench_browser.py: plain Pyodide in a module worker, started at once, loading
// the same wheels as the site (from its manifest), answering the same bridge requests.
const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
const base = (window.baseline = { readyAt: null, failed: null });
worker.onmessage = ({ data }) => {
  if (data.type === "ready") base.readyAt = performance.now();
  else if (data.type === "failed") base.failed = data.error;
  else if (data.type === "reply") {
    pending.get(data.id)(JSON.parse(data.json));
    pending.delete(data.id);
  }
};
worker.postMessage({ type: "init", manifest: new URL("../assets/rollbook/manifest.json", location.href).href });
function ask(request) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ type: "request", id, json: JSON.stringify(request) });
  });
}
let seed = 1;
document.getElementById("roll").addEventListener("click", async () => {
  const reply = await ask({ op: "roll", expr: "2d6", seed: seed++ });
  document.getElementById("out").textContent = String(reply.total);
});
