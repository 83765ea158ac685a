// Lab page for the start-up benchmark: starts the lab worker at once and records, in page
// time (0 = navigation start), when the engine is ready; `labRoll` times click -> painted.
const config = JSON.parse(document.getElementById("lab-config").textContent);
const lab = (window.lab = { ready: null, failed: null, longTasks: [] });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) lab.longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });

lab.workerCreated = performance.now();
const worker = new Worker(new URL("worker.mjs", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
lab.readyPromise = new Promise((resolve) => {
  worker.onmessage = ({ data }) => {
    if (data.type === "ready") {
      lab.ready = performance.now();
      lab.workerMs = data.ms;
      lab.importMs = data.importMs;
      lab.marks = data.marks;
      lab.workerOrigin = data.marks.origin - performance.timeOrigin;
      resolve(lab.ready);
    } else if (data.type === "failed") {
      lab.failed = data.error;
      resolve(null);
    } else if (data.type === "reply") {
      pending.get(data.id)(data.json);
      pending.delete(data.id);
    }
  };
});
worker.postMessage({ type: "init", ...config });

function ask(request) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ type: "request", id, json: JSON.stringify(request) });
  });
}
lab.ask = ask;

// Click -> result painted: the button's click handler asks the worker, writes the total,
// and the time is taken in the frame after the one that shows it.
const button = document.getElementById("roll");
const out = document.getElementById("out");
button.addEventListener("click", async (event) => {
  const t0 = event.timeStamp;
  const reply = JSON.parse(await ask({ op: "roll", expr: "4d6kh3", seed: lab.seed++ }));
  out.textContent = String(reply.total);
  requestAnimationFrame(() => setTimeout(() => lab.clicks.push(performance.now() - t0), 0));
});
lab.seed = 1;
lab.clicks = [];
