// @ts-check
// Unpacking the memory snapshot (rollbook/site_runtime/snapshot_pack.py): gunzip (fetchfile.js),
// then lay the stored runs of pages out in the zero-filled memory (`expand`).
//
// Also the helper worker that inflates off the engine worker's thread: that takes
// 100-250 ms, and on that thread it also held up Pyodide's WebAssembly download, which the
// engine worker feeds to the compiler. Started by boot-snapshot.js under the name below:
//   engine worker -> helper  {url}
//   helper -> engine worker  {packed} (an ArrayBuffer, transferred) | {error: sentence}
// Imported by the engine worker itself (to expand, and to download when no helper could
// start), it only exports.

import { gunzip } from "./fetchfile.js";

const MAGIC = "rbsparse";

/**
 * The memory from inflated bytes: the sparse layout laid out, or a plain snapshot (no
 * "rbsparse" head) as it is. `memory`, when given, is a zero-filled Uint8Array of the
 * memory's size to write into (Pyodide may already hold it); else one is made.
 * @param {ArrayBuffer} buffer
 * @param {Uint8Array | null} [memory]
 * @returns {Uint8Array}
 */
export function expand(buffer, memory = null) {
  const bytes = new Uint8Array(buffer);
  const damaged = () => new Error("the start-up snapshot file is damaged");
  const tag = String.fromCharCode(...bytes.subarray(0, MAGIC.length));
  if (bytes.length < 20 || tag !== MAGIC) {
    if (!memory) return bytes;
    if (memory.length !== bytes.length) throw damaged();
    memory.set(bytes);
    return memory;
  }
  const view = new DataView(buffer);
  const [size, page, runs] = [8, 12, 16].map((at) => view.getUint32(at, true));
  if (memory && memory.length !== size) throw damaged();
  const out = memory || new Uint8Array(size);
  let at = 20 + 8 * runs;
  for (let run = 0; run < runs && at <= bytes.length; run++) {
    const start = view.getUint32(20 + 8 * run, true) * page;
    const length = Math.min(view.getUint32(24 + 8 * run, true) * page, size - start);
    if (length < 0 || at + length > bytes.length) break;
    out.set(bytes.subarray(at, at + length), start);
    at += length;
  }
  if (at !== bytes.length) throw damaged();
  return out;
}

/**
 * The snapshot file at `url`, downloaded and inflated as it streams in.
 * @param {URL | string} url
 */
export async function download(url) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  // Inflated as it downloads (a host that already undid the gzip hands over the bytes).
  return new Response(gunzip(response.body)).arrayBuffer();
}

if (self.name === "rollbook-unpack") {
  self.onmessage = async ({ data }) => {
    try {
      const packed = await download(/** @type {{url: string}} */ (data).url);
      self.postMessage({ packed }, [packed]);
    } catch (error) {
      self.postMessage({ error: String((error instanceof Error && error.message) || error) });
    }
  };
}
