// @ts-check
// The rollbook engine worker: self-hosted Pyodide running `rollbook.engine.bridge`.
//
// A module worker (Pyodide 314 refuses classic ones). The messages it takes and sends are
// the `ToWorker` and `FromWorker` unions of protocol.js (wasm, init, deadline, ready |
// failed, later, request, begin, reply), each posted through `post` so tsc holds them to it.
// Requests that arrive before "ready" wait for it, so the page may send at any time.
// A plain start imports only what a first roll needs before "ready"; the rest comes after
// "later", one module per task (rollbook/engine/startup.py). A request that needs a module
// not imported yet has it imported before "begin", from which the page's runaway watchdog
// counts, so an import never runs under it. `imports` says what the request found:
// {waited: modules imported for it before "begin", notYet: background modules still
// missing then, during: modules imported while it ran (0 unless startup.py is wrong)}.

// The manifest (always next to this file) is asked for before anything else, and the
// worker's own modules are imported only then: with static imports the request would wait
// for every module to arrive and run, a round trip and more on a slow phone. What the
// downloads need comes first; what they do not (the snapshot's code, the wheels' mounting)
// is asked for once they have left, not to hold one of the host's few connections.
const MANIFEST = new URL("./manifest.json", import.meta.url);
const manifestAsked = fetch(MANIFEST);
manifestAsked.catch(() => {}); // awaited by init, which says why it failed
// The address of Pyodide's WebAssembly (relative to this file), written here by the build
// from the manifest it writes beside it (rollbook/site_runtime/build.py; empty in the
// source and on a site without Pyodide): the longest download starts with the manifest's,
// not a round trip later. init() uses it only if the manifest names the same file.
const EARLY_WASM = "";
/** @typedef {import("./fetchfile.js").EarlyDownload} EarlyDownload */
// The page's head may have asked for that file already with a preload (early_start.py),
// before this worker's thread and file were there; if so, the first message (before `init`)
// says so, and the worker takes the preload's bytes from the browser's cache.
/** @type {Promise<unknown>} */
const firstMessage = new Promise((resolve) => {
  self.addEventListener("message", (event) => resolve(/** @type {MessageEvent} */ (event).data), { once: true });
});
const early = EARLY_WASM ? startEarly(new URL(EARLY_WASM, import.meta.url), firstMessage) : null;
/** The page's Resource Timing of its preload, once it is in (`timed` messages). */
/** @type {Partial<PerformanceResourceTiming>[]} */
const pageTimings = [];
const core = (async () => {
  const [filePart, speedPart, checkPart] = await Promise.all([
    import("./fetchfile.js"),
    import("./linkspeed.js"),
    import("./wheel-check.js"),
    // Imported by wheel-check.js; named here so it is fetched with the others, not after.
    import("./sha256.js"),
  ]);
  // Pyodide's files come brotli-compressed: the decoder is asked for now, with the manifest's
  // answer and the WebAssembly's first bytes on their way.
  if (EARLY_WASM) filePart.loadDecoder();
  return { ...filePart, ...speedPart, ...checkPart };
})();
/**
 * Download `url` now, before this worker's modules are in: its body is read as it comes (a
 * stream that never pushes back), and when it began is kept for the link's rate
 * (linkspeed.js), which would otherwise start when the worker first reads it. If `first`,
 * the first message, says the page's head asked for it already (`{type: "wasm", url,
 * asked}`), the request takes the browser's cached copy, even one still coming in (the
 * preload's), and the rate counts every byte from `asked` on.
 * @param {URL} url
 * @param {Promise<unknown>} first
 * @returns {EarlyDownload}
 */
function startEarly(url, first) {
  /** @type {import("./linkspeed.js").FirstSeen | undefined} */
  let firstAt;
  let taken = false;
  const response = first.then((message) => {
    const told = /** @type {{type?: unknown, url?: unknown, asked?: unknown}} */ (message ?? {});
    const preloaded = told.type === "wasm" && told.url === url.href;
    const asked = preloaded && typeof told.asked === "number" ? told.asked - performance.timeOrigin : NaN;
    // Never later than now: a download timed from the future would read infinitely fast.
    if (Number.isFinite(asked) && asked <= performance.now()) firstAt = { at: asked, whole: true };
    return fetch(url, preloaded ? { cache: "force-cache" } : {}).then((answer) => {
      if (!answer.ok || !answer.body) return answer;
      /** @type {TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>} */
      const timed = new TransformStream(
        {
          transform(chunk, controller) {
            firstAt ??= { at: performance.now(), whole: false };
            controller.enqueue(chunk);
          },
        },
        undefined,
        { highWaterMark: Number.POSITIVE_INFINITY },
      );
      const { status, statusText, headers } = answer;
      return new Response(answer.body.pipeThrough(timed), { status, statusText, headers });
    });
  });
  response.catch(() => {}); // seen by whoever takes it
  return {
    take(href) {
      if (taken || href !== url.href) return null;
      taken = true;
      return response;
    },
    firstAt: () => firstAt,
    drop() {
      if (taken) return;
      taken = true;
      response.then((answer) => answer.body?.cancel()).catch(() => {});
    },
  };
}

/** @returns {Promise<typeof import("./boot-snapshot.js") & typeof import("./wheels.js")>} */
async function importRest() {
  const [snapshotPart, wheelsPart] = await Promise.all([import("./boot-snapshot.js"), import("./wheels.js")]);
  return { ...snapshotPart, ...wheelsPart };
}

/** @typedef {import("./protocol.js").FromWorker} FromWorker */
/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").ImportRecord} ImportRecord */
/** @typedef {import("./protocol.js").SnapshotChoice} SnapshotChoice */
/** @typedef {import("./protocol.js").EngineManifest} EngineManifest */
/** @typedef {import("./linkspeed.js").Meter} Meter */
/**
 * The Python module rollbook.engine.startup, as the worker calls it (a Pyodide proxy).
 * @typedef {{FIRST: PyList, missing: () => PyList, prepare: (json: string) => PyList,
 *   imported: () => number, step: () => boolean}} Startup
 * @typedef {{toJs: () => string[], destroy: () => void}} PyList
 */

/**
 * Post one message to the page (the contract: protocol.js `FromWorker`).
 * @param {FromWorker} message
 */
function post(message) {
  self.postMessage(message);
}

const started = performance.now();
// Milliseconds from the worker's start to each step of init (the benchmark prints them).
/** @type {Record<string, number>} */
const marks = {};
const mark = (/** @type {string} */ name) => (marks[name] = Math.round(performance.now() - started));
let restored = false; // whether the interpreter came from the build's memory snapshot
/** @type {SnapshotChoice | null} */
let choice = null; // why the snapshot was or was not fetched (linkspeed.js), for the page
/** @type {Promise<(json: string) => string> | null} */
let ready = null; // promise of the bridge's handle_json (with the odds' absence said), set by init
/** @type {Startup | null} */
let startup = null; // rollbook.engine.startup: what to import when, once the engine is in
let later = false; // whether the background imports have been asked for

// No package is loaded from Pyodide's lock (our wheels go on sys.path directly), so when the
// manifest carries the lock's `info` (Pyodide checks its ABI) an empty lock spares
// fetching the 119 KB file. Without it Pyodide fetches its own lock.
/** @param {EngineManifest} manifest */
function lockOptions(manifest) {
  return manifest.lock_info ? { lockFileContents: { info: manifest.lock_info, packages: {} } } : {};
}

/**
 * @param {URL} url
 * @param {Meter | null} meter
 */
async function fetchBytes(url, meter) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url.pathname} answered ${response.status}`);
  return new Response(meter ? meter.count(response.body) : response.body).arrayBuffer();
}

/**
 * Pyodide's WebAssembly module, compiled as it downloads (and inflates); null if that
 * failed. `open()` gives a fresh Response of the file. A host that serves .wasm files
 * with another type than application/wasm makes the streaming compile fail (and
 * Pyodide's own start hang): the file is then compiled from its bytes.
 * @param {() => Promise<Response>} open
 * @returns {Promise<WebAssembly.Module | null>}
 */
function compileEarly(open) {
  return WebAssembly.compileStreaming(open())
    .catch(() =>
      open()
        .then((response) => response.arrayBuffer())
        .then((bytes) => WebAssembly.compile(bytes)),
    )
    .catch(() => null);
}

/**
 * @typedef {(native: typeof fetch, input: RequestInfo | URL, init?: RequestInit) => Promise<Response>} Route
 */

/**
 * Pyodide fetches its files with the global `fetch`: the requests for the URLs in `routes`
 * are answered by their route, which may still fetch them (`native`) its own way.
 * @param {Record<string, Route>} routes
 */
function routeFetches(routes) {
  const native = self.fetch;
  self.fetch = (input, init) => {
    const url = typeof input === "string" || input instanceof URL ? String(input) : input.url;
    return Object.hasOwn(routes, url) ? routes[url](native, input, init) : native(input, init);
  };
}

/**
 * A route that answers the request with `open()` (the packed file fetched and decoded by
 * fetchFile, whose address no route catches) or, without it, sends the request as it
 * comes; it settles `done` when the response's last byte is in (or at once, if it has no
 * body or fails).
 * @param {() => void} done
 * @param {(() => Promise<Response>) | null} open
 * @returns {Route}
 */
function watched(done, open) {
  return async (native, input, init) => {
    let response;
    try {
      response = await (open ? open() : native(input, init));
    } catch (error) {
      done();
      throw error;
    }
    if (!response.body) {
      done();
      return response;
    }
    const body = response.body.pipeThrough(new TransformStream({ flush: done }));
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  };
}

/**
 * Emscripten settings whose instantiateWasm uses the module `compileEarly` made. Pyodide's
 * own instantiateWasm adds imports of its own and then calls WebAssembly.instantiateStreaming
 * on its download of the same file: that one call is answered with the early module (and
 * that download dropped), or, if the early compile failed, left to the browser.
 * @param {Record<string, any>} settings
 * @param {Promise<WebAssembly.Module | null>} early
 */
function withModule(settings, early) {
  const original = settings.instantiateWasm;
  settings.instantiateWasm = (/** @type {WebAssembly.Imports} */ imports, /** @type {Function} */ callback) => {
    const native = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (source, withImports) => {
      WebAssembly.instantiateStreaming = native;
      const module = await early;
      if (!module) return native(source, withImports);
      Promise.resolve(source).then(
        (response) => response.body?.cancel(),
        () => {},
      );
      return { module, instance: await WebAssembly.instantiate(module, withImports) };
    };
    return original(imports, callback);
  };
  return settings;
}

/**
 * Start Pyodide and the engine; resolves to the bridge's handle_json.
 * @param {string} manifestUrl
 * @returns {Promise<(json: string) => string>}
 */
async function init(manifestUrl) {
  const base = new URL(manifestUrl, self.location.href);
  const asked = base.href === MANIFEST.href ? manifestAsked : fetch(base);
  const {
    dropOdds,
    fetchFile,
    importFile,
    lazyResponse,
    loadWheels,
    makeMeter,
    oddsReply,
    processorSlowdown,
    snapshotPays,
    StartError,
  } = await core;
  /** @type {EngineManifest} */
  let manifest;
  try {
    const response = await asked;
    if (!response.ok) throw new Error(`the manifest answered ${response.status}`);
    manifest = await response.json();
    if (!manifest || typeof manifest !== "object") throw new Error("the manifest is not an object");
  } catch (error) {
    console.warn("rollbook engine:", error);
    throw new StartError("the site's list of engine files (manifest.json) could not be read", "start.manifest");
  }
  mark("manifest");
  // A build without Pyodide (`pyodide_required: false`) says why in the manifest.
  if (!manifest.pyodide)
    throw new StartError(manifest.no_runtime || "this site has no dice runtime", "start.no_runtime");
  const deadline = manifest.startup_deadline_ms;
  if (typeof deadline === "number" && Number.isInteger(deadline) && deadline > 0)
    post({ type: "deadline", ms: deadline });
  const pyodideDir = new URL(manifest.pyodide, base);
  const packed = manifest.pyodide_br || []; // files served only as NAME.br
  const meter = makeMeter(); // counts what both start-up paths download
  // Pyodide would compile its WebAssembly only when it gets to instantiating it (without a
  // size for the snapshot, once the snapshot is in); compiling it from here overlaps it
  // with the downloads.
  const openWasm = () => fetchFile(pyodideDir, "pyodide.asm.wasm", packed, meter, "application/wasm", early);
  const wasm = compileEarly(openWasm);
  early?.drop(); // taken just now if the manifest names the file the build wrote above
  wasm.then(() => mark("wasm")).finally(() => meter.settle());
  // The processor's speed is timed while the WebAssembly's first bytes are on their way:
  // the thread is idle then, and the link's rate, measured as chunks arrive, is not skewed
  // by a thread too busy to take them in.
  const slowdown = processorSlowdown();
  const rest = importRest();
  /** @type {Record<string, Route>} */
  const routes = {};
  // Pyodide asks for `pyodide.asm.wasm` itself as soon as loadPyodide starts. The site
  // serves it packed only, and the worker fetches it already: that request is answered
  // with a response that fetches nothing unless read (withModule drops it unread).
  if (packed.includes("pyodide.asm.wasm")) {
    routes[new URL("pyodide.asm.wasm", pyodideDir).href] = async () => lazyResponse(openWasm, "application/wasm");
  }
  // Pyodide fetches the standard library itself, alongside the WebAssembly: the interpreter
  // cannot be made without it (tried: asked for only once the WebAssembly was in, it came
  // 0.45 s later and Python's start waited for it). The wheels wait until both are in, so
  // as not to share the line with what Python's start needs.
  /** @type {() => void} */
  let stdlibIn = () => {};
  const stdlibDone = new Promise((resolve) => (stdlibIn = () => resolve(undefined)));
  const stdlib = new URL("python_stdlib.zip", pyodideDir).href;
  const openStdlib = () => fetchFile(pyodideDir, "python_stdlib.zip", packed, null);
  routes[stdlib] = watched(stdlibIn, packed.includes("python_stdlib.zip") ? openStdlib : null);
  routeFetches(routes);
  // Pyodide's runtime (1.2 MB of JavaScript) is fetched and compiled now, alongside its
  // loader, instead of after it: loadPyodide would only ask for it once it has started.
  const runtime = importFile(pyodideDir, "pyodide.asm.mjs", packed, meter);
  runtime.then(
    () => mark("runtime"),
    () => {},
  ); // a failure surfaces through loadPyodide
  // Wheels download (and are checked against the manifest) while the interpreter boots,
  // once the standard library is in (or Python has started without asking for it):
  // nothing reads them before Python has started.
  /** @type {() => void} */
  let booted = () => {};
  const bootDone = new Promise((resolve) => (booted = () => resolve(undefined)));
  const wheelsTurn = Promise.race([wasm.then(() => stdlibDone), bootDone]);
  const wheels = wheelsTurn.then(() => loadWheels(manifest, base, (url) => fetchBytes(url, meter)));
  const never = new Promise(() => {});
  const wheelsBroken = wheels.then(() => never);
  wheelsBroken.catch(() => {}); // raced below, once Pyodide's start is under way
  const loader = import(new URL("pyodide.mjs", pyodideDir).href);
  loader.catch(() => {}); // awaited below, with its own sentence
  const { afterRestore, mountWheels, startSnapshot, startUnpacker } = await rest;
  // Its helper starts while the choice is made (ended at once if the snapshot is not taken).
  const unpacker = manifest.snapshot ? startUnpacker() : null;
  // The snapshot only where it pays: the rate those downloads arrive at and the speed of
  // this processor decide.
  choice = manifest.snapshot
    ? await snapshotPays(manifest, base, meter, slowdown, pageTimings)
    : { use: false, reason: "none" };
  mark("chosen");
  const snapshot = choice.use ? startSnapshot(manifest, base, unpacker) : null;
  if (!snapshot && unpacker) unpacker.terminate();
  if (snapshot)
    snapshot.filled.then(
      () => mark("snapshot"),
      () => {},
    );
  let loadPyodide;
  try {
    ({ loadPyodide } = await loader);
  } catch (error) {
    console.warn("rollbook engine:", error);
    throw new StartError("its Python runtime (pyodide.mjs) could not be loaded", "start.runtime");
  }
  // A fault that will never heal (a wheel, or WebAssembly that can be neither streamed nor
  // compiled from its bytes: missing, blocked, damaged) ends the start at once, not at the
  // page's deadline.
  const wasmBroken = wasm.then((module) => {
    if (module) return never;
    throw new StartError("its WebAssembly file (pyodide.asm.wasm) could not be loaded", "start.wasm");
  });
  const broken = Promise.race([wheelsBroken, wasmBroken]);
  // Pyodide copies the snapshot into its memory as soon as this returns: the module is
  // made while the snapshot is still on its way, and handed over once it is in.
  const create =
    (/** @type {Promise<Uint8Array> | null} */ filled) => async (/** @type {Record<string, any>} */ settings) => {
      const module = await (await runtime).default(withModule(settings, wasm));
      mark("module");
      await filled;
      return module;
    };
  const options = {
    indexURL: pyodideDir.href,
    stdLibURL: stdlib,
    createPyodideModule: create(null),
    packageBaseUrl: pyodideDir.href,
    ...lockOptions(manifest),
    stdout: () => {},
    stderr: (/** @type {string} */ line) => console.warn("rollbook engine:", line),
  };
  const boot = async () => {
    try {
      const pyodide = await loadPyodide(
        snapshot
          ? { ...options, createPyodideModule: create(snapshot.filled), _loadSnapshot: snapshot.memory }
          : options,
      );
      restored = Boolean(snapshot);
      return pyodide;
    } catch (error) {
      if (!snapshot) throw error;
      console.warn("rollbook engine: snapshot not usable, starting Pyodide without it:", error);
      return loadPyodide(options);
    }
  };
  const pyodide = await Promise.race([boot().finally(booted), broken]);
  mark("loaded");
  const loaded = await wheels;
  mountWheels(pyodide, loaded.wheels);
  mark("wheels");
  if (restored && snapshot) afterRestore(pyodide, snapshot);
  if (loaded.oddsLost) dropOdds(pyodide);
  try {
    const bridge = pyodide.pyimport("rollbook.engine.bridge");
    mark("bridge");
    // What a first inline roll needs, and no more: the rest is imported after ready.
    const steps = /** @type {Startup} */ (pyodide.pyimport("rollbook.engine.startup"));
    startup = steps;
    pyodide.runPython(`import ${strings(steps.FIRST).join(", ")}`);
    mark("engine");
    const wasmIn = meter.ends["pyodide.asm.wasm"]; // its last byte, for the benchmark
    if (wasmIn) marks["wasm-in"] = Math.round(wasmIn - started);
    // Each reply says, where it needed odds, that the odds library is missing.
    const lost = loaded.oddsLost;
    return (/** @type {string} */ json) => oddsReply(bridge.handle_json(json), lost);
  } catch (error) {
    console.warn("rollbook engine:", error); // the traceback, for the site's author
    throw new StartError("its dice code could not be loaded (the engine file is damaged)", "start.code");
  }
}

/**
 * A Python list of strings as an array (the proxy is freed).
 * @param {PyList} proxy
 */
function strings(proxy) {
  const list = proxy.toJs();
  proxy.destroy();
  return list;
}

/** Import the next background module, then yield to any request before the one after. */
function importLater() {
  if (startup?.step()) setTimeout(importLater, 0);
}

/**
 * Answer one request: its modules first (outside its time), then "begin", then the bridge.
 * @param {{id: number, json: string}} message
 */
async function answer(message) {
  let json;
  /** @type {ImportRecord} */
  const imports = { waited: [], notYet: [], during: 0 };
  try {
    const handle = ready && (await ready);
    if (!handle || !startup) throw new Error("a request before the engine's start");
    imports.notYet = strings(startup.missing());
    imports.waited = strings(startup.prepare(message.json));
    post({ type: "begin", id: message.id });
    const before = startup.imported();
    json = handle(message.json);
    imports.during = startup.imported() - before;
  } catch (error) {
    // The bridge never raises; this is the interpreter itself failing.
    json = JSON.stringify({ error: "The dice engine failed on this request.", kind: "WorkerError" });
    console.warn("rollbook engine:", error);
  }
  post({ type: "reply", id: message.id, json, imports });
}

self.onmessage = async (event) => {
  const message = /** @type {ToWorker} */ (event.data);
  if (message.type === "init") {
    ready = init(message.manifest);
    try {
      await ready;
      post({ type: "ready", ms: performance.now() - started, marks, restored, choice });
    } catch (error) {
      const StartError = await core.then(
        (part) => part.StartError,
        () => null,
      );
      const known = StartError !== null && error instanceof StartError;
      if (!known) console.warn("rollbook engine:", error);
      const sentence = known ? error.message : "it failed while starting";
      // The page says it in its own language by the key; the clause is for its console.
      post({ type: "failed", error: sentence, key: known ? error.key : "start.failed", file: known ? error.file : "" });
    }
    return;
  }
  if (message.type === "later" && !later && ready) {
    later = true;
    ready.then(importLater, () => {});
    return;
  }
  if (message.type === "timed" && message.entry && typeof message.entry === "object") {
    pageTimings.push(message.entry);
    return;
  }
  if (message.type === "request") await answer(message);
};
