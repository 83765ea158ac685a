// @ts-check
// Fetching the Pyodide files the site serves gzipped (rollbook/site_runtime/pyodide_files.py),
// inflated as they stream in, and counting the bytes of every download on the way (the
// link's speed decides whether the start-up snapshot pays: linkspeed.js).

/**
 * `body` inflated, as a stream. A host that already undid the gzip (it sent the file with
 * `Content-Encoding: gzip`) hands over the inflated bytes, which never start with gzip's
 * two magic bytes; they pass through as they are.
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} body
 * @returns {ReadableStream<Uint8Array<ArrayBuffer>>}
 */
export function gunzip(body) {
  const reader = body.getReader();
  /** @type {ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | null} */
  let inner = null;
  return new ReadableStream(
    {
      async pull(controller) {
        if (!inner) {
          /** @type {Uint8Array<ArrayBuffer>[]} */
          const head = [];
          let size = 0;
          let done = false;
          while (size < 2 && !done) {
            const chunk = await reader.read();
            done = chunk.done;
            if (chunk.value) {
              head.push(chunk.value);
              size += chunk.value.length;
            }
          }
          const first = new Uint8Array(await new Blob(head).arrayBuffer());
          /** @type {ReadableStream<Uint8Array<ArrayBuffer>>} */
          const rest = new ReadableStream({
            start(c) {
              if (size) c.enqueue(first);
              if (done) c.close();
            },
            async pull(c) {
              const chunk = await reader.read();
              if (chunk.done) c.close();
              else c.enqueue(chunk.value);
            },
            cancel: (reason) => reader.cancel(reason),
          });
          const gzipped = first[0] === 0x1f && first[1] === 0x8b;
          inner = (gzipped ? rest.pipeThrough(new DecompressionStream("gzip")) : rest).getReader();
        }
        const chunk = await inner.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => (inner ? inner.cancel(reason) : reader.cancel(reason)),
    },
    { highWaterMark: 0 },
  );
}

/**
 * A download the worker started before its modules were in (worker.js, `startEarly`):
 * `take(href)` gives its response once, if it is of that URL; `firstAt()` says when its
 * first chunk came (if it has); `drop()` cancels it if nothing took it.
 * @typedef {{take: (href: string) => Promise<Response> | null,
 *   firstAt: () => number | undefined, drop: () => void}} EarlyDownload
 */

/**
 * A Response for `name` in `dir`: from `name.gz`, inflated, when the manifest lists it in
 * `gzipped`, else the file itself. `meter` (linkspeed.js) counts the bytes as they arrive.
 * `early`, if it is a download of that very URL, is used instead of a new request.
 * @param {URL} dir
 * @param {string} name
 * @param {string[]} gzipped
 * @param {import("./linkspeed.js").Meter | null} meter
 * @param {string} [type]  the Content-Type to give it (else the server's)
 * @param {EarlyDownload | null} [early]
 */
export async function fetchFile(dir, name, gzipped, meter, type, early = null) {
  const packed = gzipped.includes(name);
  const url = new URL(packed ? `${name}.gz` : name, dir);
  const taken = early?.take(url.href) ?? null; // before any await: the caller drops it next
  const response = await (taken || fetch(url));
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  if (!response.body) throw new Error(`${url.pathname} answered with no body`);
  const firstAt = taken && early ? early.firstAt : undefined;
  const counted = meter ? meter.count(response.body, name, firstAt) : response.body;
  return new Response(packed ? gunzip(counted) : counted, {
    headers: { "Content-Type": type || response.headers.get("Content-Type") || "" },
  });
}

/**
 * A Response for Pyodide's own request for a file the worker already fetches itself: it
 * asks for nothing until read (the worker cancels it unread), then fetches like fetchFile.
 * @param {() => Promise<Response>} open
 * @param {string} type
 */
export function lazyResponse(open, type) {
  /** @type {ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | null} */
  let reader = null;
  /** @type {ReadableStream<Uint8Array<ArrayBuffer>>} */
  const body = new ReadableStream(
    {
      async pull(controller) {
        if (!reader) {
          const opened = (await open()).body;
          if (!opened) throw new Error("no body");
          reader = opened.getReader();
        }
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { "Content-Type": type } });
}

/**
 * Import the ES module `name` of `dir`, from its `.gz` when the manifest lists it so.
 * @param {URL} dir
 * @param {string} name
 * @param {string[]} gzipped
 * @param {import("./linkspeed.js").Meter | null} meter
 * @returns {Promise<any>}  the module's namespace
 */
export async function importFile(dir, name, gzipped, meter) {
  if (!gzipped.includes(name)) return import(new URL(name, dir).href);
  const response = await fetchFile(dir, name, gzipped, meter, "text/javascript");
  const url = URL.createObjectURL(await response.blob());
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
