// @ts-check
// Fetching the Pyodide files the site serves brotli-compressed
// (rollbook/site_runtime/pyodide_files.py), decoded as they stream in, and counting the bytes
// of every download on the way (the link's speed decides whether the start-up snapshot
// pays: linkspeed.js). Chromium's DecompressionStream knows gzip and deflate only: brotli is
// decoded by the npm package brotli-dec-wasm, which the build writes next to this file
// (rollbook/site_runtime/brotli_decoder.py), its WebAssembly gzipped.

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
 * @typedef {{code: number, buf: Uint8Array<ArrayBuffer>, input_offset: number, free: () => void}} DecodeStep
 * @typedef {{dec: (input: Uint8Array, outputSize: number) => DecodeStep, free: () => void}} BrotliStream
 * @typedef {{BrotliDecStream: new () => BrotliStream}} BrotliDecoder
 */

/** @type {Promise<BrotliDecoder> | null} */
let decoder = null;

/**
 * The brotli decoder, loaded once: its module and its WebAssembly are asked for together
 * (the worker calls this as it starts, so both are in before the first bytes to decode).
 * @returns {Promise<BrotliDecoder>}
 */
export function loadDecoder() {
  decoder ??= (async () => {
    const wasm = fetch(new URL("./brotli_dec_wasm_bg.wasm.gz", import.meta.url)).then((response) => {
      if (!response.ok || !response.body) throw new Error(`the brotli decoder answered ${response.status}`);
      return WebAssembly.compileStreaming(
        new Response(gunzip(response.body), { headers: { "Content-Type": "application/wasm" } }),
      );
    });
    const [bindings, module] = await Promise.all([import(new URL("./brotli_dec_wasm.js", import.meta.url).href), wasm]);
    await bindings.default({ module_or_path: module });
    return bindings;
  })();
  decoder.catch(() => {}); // seen by whoever decodes
  return decoder;
}

// brotli-dec-wasm's result codes: done, wants the next chunk, has more output for this one.
const DONE = 1;
const MORE_OUTPUT = 3;
// Bytes of output per call: a chunk off the network inflates to a few times its size.
const OUTPUT_STEP = 1 << 20;

/**
 * `body` decoded from brotli, as a stream that fails if the data is damaged or cut short.
 * A host that sent the file with `Content-Encoding: br` has had the browser decode it
 * already (`decoded`): it passes through as it is.
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} body
 * @param {boolean} [decoded]
 * @returns {ReadableStream<Uint8Array<ArrayBuffer>>}
 */
export function unbrotli(body, decoded = false) {
  if (decoded) return body;
  /** @type {BrotliStream | null} */
  let stream = null;
  let code = 0;
  const free = () => {
    stream?.free();
    stream = null;
  };
  return body.pipeThrough(
    new TransformStream({
      async transform(chunk, controller) {
        if (!chunk.length) return;
        if (code === DONE) throw new Error("data after the end of the brotli stream");
        stream ??= new (await loadDecoder()).BrotliDecStream();
        let input = chunk;
        try {
          do {
            const step = stream.dec(input, OUTPUT_STEP);
            code = step.code;
            input = input.subarray(step.input_offset);
            const out = step.buf; // a copy out of the decoder's memory
            step.free();
            if (out.length) controller.enqueue(out);
          } while (code === MORE_OUTPUT || (code !== DONE && input.length));
        } catch (error) {
          free();
          throw error;
        }
        if (code === DONE) {
          free();
          if (input.length) throw new Error("data after the end of the brotli stream");
        }
      },
      flush() {
        free();
        if (code !== DONE) throw new Error("the brotli stream was cut short");
      },
    }),
  );
}

/**
 * A download the worker started before its modules were in (worker.js, `startEarly`):
 * `take(href)` gives its response once, if it is of that URL; `firstAt()` says when it
 * began, once known (linkspeed.js, `FirstSeen`); `drop()` cancels it if nothing took it.
 * @typedef {{take: (href: string) => Promise<Response> | null,
 *   firstAt: () => import("./linkspeed.js").FirstSeen | undefined, drop: () => void}} EarlyDownload
 */

/**
 * A Response for `name` in `dir`: from `name.br`, decoded, when the manifest lists it in
 * `packed`, else the file itself. `meter` (linkspeed.js) counts the bytes as they arrive.
 * `early`, if it is a download of that very URL, is used instead of a new request.
 * @param {URL} dir
 * @param {string} name
 * @param {string[]} packedNames
 * @param {import("./linkspeed.js").Meter | null} meter
 * @param {string} [type]  the Content-Type to give it (else the server's)
 * @param {EarlyDownload | null} [early]
 */
export async function fetchFile(dir, name, packedNames, meter, type, early = null) {
  const packed = packedNames.includes(name);
  const url = new URL(packed ? `${name}.br` : name, dir);
  const taken = early?.take(url.href) ?? null; // before any await: the caller drops it next
  const response = await (taken || fetch(url));
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  if (!response.body) throw new Error(`${url.pathname} answered with no body`);
  const firstAt = taken && early ? early.firstAt : undefined;
  const counted = meter ? meter.count(response.body, name, firstAt) : response.body;
  const decoded = /\bbr\b/.test(response.headers.get("Content-Encoding") || "");
  return new Response(packed ? unbrotli(counted, decoded) : counted, {
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
 * Import the ES module `name` of `dir`, from its `.br` when the manifest lists it so.
 * @param {URL} dir
 * @param {string} name
 * @param {string[]} packedNames
 * @param {import("./linkspeed.js").Meter | null} meter
 * @returns {Promise<any>}  the module's namespace
 */
export async function importFile(dir, name, packedNames, meter) {
  if (!packedNames.includes(name)) return import(new URL(name, dir).href);
  const response = await fetchFile(dir, name, packedNames, meter, "text/javascript");
  const url = URL.createObjectURL(await response.blob());
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
