// @ts-check
// Whether the start-up snapshot pays on this reader's link and processor, from what the
// page can know.
//
// Restoring the snapshot saves Python's start-up (about SAVED_S seconds on the reference
// core, more on a slower processor: slowerSaves(processorSlowdown)) but costs its download
// (`snapshot_size` bytes in the manifest). Both start-up paths first download the same
// files (Pyodide's WebAssembly and runtime, the wheels); the worker counts their bytes as
// they arrive (`meter`) and, once PROBE_BYTES have come in (or everything has), takes the
// rate seen so far, or the rate the browser timed a finished download at if that is
// faster (`networkRate`: the meter reads a fast link slow while this thread is busy). The
// snapshot is fetched when it would arrive within the time it saves at that rate, and
// never when the browser says the reader saves data or is on a 2g/3g connection; one
// already in the browser's cache (a later visit) is always used.
// docs/reference/performance.md has the measured crossover.

/** Seconds of start-up a restore saves over a plain start (measured: performance.md),
 * when the standard library is served as source ... */
export const SAVED_S = 1.5;
/** ... and when it is served as bytecode (the build's default): a plain start then
 * compiles nothing, and the snapshot pays only on fast links. */
export const SAVED_COMPILED_S = 0.5;

/**
 * What a restore saves on this site: it depends on what a plain start has to compile.
 * @param {import("./protocol.js").EngineManifest} manifest
 */
export function savedSeconds(manifest) {
  const compiled = Array.isArray(manifest.bytecode) ? manifest.bytecode : [];
  return compiled.includes("stdlib") ? SAVED_COMPILED_S : SAVED_S;
}
/**
 * Milliseconds `processorSlowdown`'s piece of work takes on the processor SAVED_S and
 * SAVED_COMPILED_S were measured on (a core of the build machine, Chromium 156; the
 * median of warm runs, performance.md).
 */
export const CALIBRATION_MS = 4.5;
/** The most a measured slowdown counts for: beyond it a page is busy rather than slow. */
export const MAX_SLOWDOWN = 6;

/**
 * How many times the reference core's saving a restore saves on a processor `slowdown`
 * times slower: half the slowdown beyond the reference counts. Measured with the whole
 * renderer slowed (performance.md, "The crossover, measured again"): the two starts cross
 * near 86 Mbit/s at full speed, 56 Mbit/s at 2x and 38 Mbit/s at 4x, not at 43 and
 * 21 Mbit/s as a saving in proportion to the slowdown would have it; the snapshot's own
 * inflating and copying slows down too.
 * @param {number} slowdown
 */
export function slowerSaves(slowdown) {
  return (1 + slowdown) / 2;
}

/** One run of the calibration work: objects, strings and a sort, interpreter-like. */
function calibrationRun() {
  const t0 = performance.now();
  const items = [];
  let hash = 0;
  for (let i = 0; i < 20000; i++) items.push({ key: i % 97, text: `r${i % 1000}` });
  for (const item of items) hash = (hash * 31 + item.key + item.text.length) | 0;
  items.sort((a, b) => a.key - b.key || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return performance.now() - t0 + (hash & 0); // the hash keeps the work from being skipped
}

/**
 * How many times slower than the reference processor this thread runs now (1 to
 * MAX_SLOWDOWN): the median of three runs of a fixed piece of work, ~13 ms in all on the
 * reference core, done while the manifest is on its way. Python's start, which
 * a restore saves, runs in this same thread and slows down by the same factor, be it a
 * slow processor or a busy one.
 */
export function processorSlowdown() {
  const runs = [calibrationRun(), calibrationRun(), calibrationRun()].sort((a, b) => a - b);
  return Math.min(MAX_SLOWDOWN, Math.max(1, runs[1] / CALIBRATION_MS));
}

/** What the browser says of the device: logical cores and memory (GB), or null. */
export function deviceHints() {
  /** @type {Record<string, any>} */
  const nav = self.navigator || {};
  return { cores: nav.hardwareConcurrency || null, memory: nav.deviceMemory || null };
}

/** Bytes to see arrive before the rate is trusted. */
export const PROBE_BYTES = 384 * 1024;

/**
 * A byte counter shared by the start-up downloads: bytes so far, the time (and size) of
 * the first chunk, downloads still open, whether the worker said the WebAssembly is in,
 * who waits for news, and when each labelled download ended (the benchmark's marks).
 * @typedef {{bytes: number, first: number | null, firstBytes: number, open: number,
 *   settled: boolean, waiters: Array<() => void>, ends: Record<string, number>,
 *   count: (body: ReadableStream<Uint8Array<ArrayBuffer>>, label?: string,
 *     firstAt?: () => FirstSeen | undefined) => ReadableStream<Uint8Array<ArrayBuffer>>,
 *   settle: () => void, wake: () => void, rate: () => number}} Meter
 */

/**
 * When a download read before the meter was made began, for its rate: `at` is when its
 * first chunk came (`whole` false: that chunk, which may have waited, is not counted), or
 * when it was asked for (`whole` true: every byte since counts; a burst of chunks taken in
 * late then reads slow, never fast).
 * @typedef {{at: number, whole: boolean}} FirstSeen
 */

/**
 * A byte counter shared by the start-up downloads.
 * @returns {Meter}
 */
export function makeMeter() {
  /** @type {Meter} */
  const meter = {
    bytes: 0,
    first: null, // page time the first counted chunk arrived
    firstBytes: 0,
    open: 0, // counted downloads not yet finished
    settled: false, // set by the worker once the WebAssembly is in (or failed)
    waiters: [],
    ends: {}, // label -> time the download of that label ended (the benchmark's marks)
    /**
     * `body` with its chunks counted as they pass; `label` names it in `ends`. A download
     * read before the meter was made (worker.js, `startEarly`) says when it began
     * (`firstAt`), so the chunks that waited do not pass for a burst of speed; such a time
     * earlier than the meter's first counts, whichever download was counted first.
     */
    count(body, label = "", firstAt = () => undefined) {
      meter.open += 1;
      let closed = false;
      let seen = false;
      const close = () => {
        if (closed) return;
        closed = true;
        meter.open -= 1;
        if (label) meter.ends[label] = performance.now();
        meter.wake();
      };
      return body.pipeThrough(
        /** @type {TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>} */ (
          new TransformStream({
            transform(chunk, controller) {
              if (!seen) {
                seen = true;
                const began = firstAt();
                if (meter.first === null || (began && began.at < meter.first)) {
                  meter.first = began?.at ?? performance.now();
                  meter.firstBytes = began?.whole ? 0 : chunk.length;
                }
              }
              meter.bytes += chunk.length;
              controller.enqueue(chunk);
              meter.wake();
            },
            flush: close,
          })
        ),
      );
    },
    settle() {
      meter.settled = true;
      meter.wake();
    },
    wake() {
      for (const wake of meter.waiters.splice(0)) wake();
    },
    /**
     * Bytes per second since the first chunk; Infinity when everything so far came in
     * that one chunk (a network hands over tens of KB at a time; a cache, whole files).
     */
    rate() {
      const seconds = (performance.now() - (meter.first ?? performance.now())) / 1000;
      const bytes = meter.bytes - meter.firstBytes;
      return bytes > 0 && seconds > 0.005 ? bytes / seconds : Infinity;
    },
  };
  return meter;
}

/**
 * The link's rate once PROBE_BYTES have arrived, or every counted download is done.
 * @param {Meter} meter
 */
export async function measuredRate(meter, probe = PROBE_BYTES) {
  while (meter.bytes < probe && !meter.settled && (meter.open > 0 || meter.bytes === 0)) {
    await new Promise((resolve) => meter.waiters.push(() => resolve(undefined)));
  }
  return meter.rate();
}

/** This worker's Resource Timing of its downloads (none where the browser keeps none). */
const ownTimings = () => self.performance?.getEntriesByType?.("resource") ?? [];

/** The smallest finished download `networkRate` reads a rate from. */
export const TIMED_BYTES = 64 * 1024;

/**
 * The fastest rate one of this worker's finished downloads came in at, by the browser's
 * own Resource Timing (its bytes over the time from its first byte to its last), or 0.
 * The meter sees a chunk only when this thread takes it, which on a fast link is late:
 * the thread is busy decoding, compiling and importing while the bytes wait, and on
 * 127.0.0.1 the meter read 0.75-3.5 MB/s (issue 29). Files from the browser's cache
 * (nothing transferred) and small ones (one burst) say nothing of the link.
 * @param {ReadonlyArray<Partial<PerformanceResourceTiming>>} [entries]
 */
export function networkRate(entries = ownTimings()) {
  let best = 0;
  for (const entry of entries) {
    const bytes = Number(entry.encodedBodySize);
    const [start, end] = [Number(entry.responseStart), Number(entry.responseEnd)];
    if (!(Number(entry.transferSize) > 0 && bytes >= TIMED_BYTES && start > 0 && end >= 0)) continue;
    best = Math.max(best, bytes / (Math.max(end - start, 0.1) / 1000)); // 0.1 ms at least
  }
  return best;
}

/** What the browser says of the connection: "save-data", "slow" or "". */
export function connectionHint() {
  const connection = self.navigator?.connection;
  if (!connection) return "";
  if (connection.saveData) return "save-data";
  return /^(slow-2g|2g|3g)$/.test(connection.effectiveType || "") ? "slow" : "";
}

/**
 * Whether the browser's HTTP cache holds `url` already (then it costs no download).
 * @param {URL} url
 */
export async function cached(url) {
  try {
    const response = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
    if (response.body) response.body.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Whether to fetch the snapshot: {use, reason, rate, timed, slowdown, cores, memory} (rate
 * and timed in bytes per second, or null when they did not decide; slowdown: processorSlowdown(),
 * measured by the caller; cores and memory: deviceHints(), for the record: they do not
 * tell a processor's speed). A snapshot already in the browser's cache is used. Without
 * `snapshot_size` in the manifest (an older build) the measured rate is not needed: the
 * snapshot is used unless the browser's hint says no. Otherwise it is fetched when it
 * would arrive, at the faster of the meter's rate and networkRate, within the time a
 * restore saves on this processor: savedSeconds(manifest) on the reference core,
 * slowerSaves(slowdown) times that here. `page` holds the page's timing of downloads it
 * made for this worker (its preload of the WebAssembly), read by networkRate too.
 * @param {import("./protocol.js").EngineManifest} manifest  one that names a snapshot
 * @param {URL} base
 * @param {Meter} meter
 * @param {ReadonlyArray<Partial<PerformanceResourceTiming>>} [page]
 * @returns {Promise<import("./protocol.js").SnapshotChoice>}
 */
export async function snapshotPays(manifest, base, meter, slowdown = 1, page = []) {
  const known = { slowdown, ...deviceHints() };
  if (await cached(new URL(String(manifest.snapshot), base)))
    return { use: true, reason: "cached", rate: null, ...known };
  const hint = connectionHint();
  if (hint) return { use: false, reason: hint, rate: null, ...known };
  const size = manifest.snapshot_size;
  if (typeof size !== "number" || !Number.isInteger(size) || size <= 0) {
    return { use: true, reason: "no size", rate: null, ...known };
  }
  const rate = await measuredRate(meter);
  const timed = networkRate([...ownTimings(), ...page]);
  // Measured again now that the rate is in, and the lower of the two kept: the first comes
  // while the page itself is still parsing and running its scripts (the worker starts from
  // the top of <head>), which can make a fast processor look six times slower (issue 29).
  known.slowdown = Math.min(slowdown, processorSlowdown());
  const use = size / Math.max(rate, timed) <= savedSeconds(manifest) * slowerSaves(known.slowdown);
  return { use, reason: use ? "fast link" : "slow link", rate, timed: timed || null, ...known };
}
