"""The brotli decoder the engine's worker unpacks Pyodide's files with.

Pyodide's WebAssembly, runtime and standard library are served brotli-compressed
(``pyodide_files``): 1.1 MB fewer before the first roll than gzip, and many static hosts
send files exactly as they are. Chromium's ``DecompressionStream`` knows gzip and deflate
only, so the worker decodes them with the npm package ``brotli-dec-wasm`` (a streaming
decoder in WebAssembly, MIT or Apache-2.0; package.json pins it). The site serves its
module as it is and its WebAssembly gzipped (99 KB instead of 208 KB), next to
``worker.js``, which fetches both as it starts.

A released rollbook carries the two files under ``rollbook/runtime/brotli-dec-wasm/``
(``make dist``); in this repository they come from ``node_modules`` (``make setup``).
"""

from __future__ import annotations

import gzip
from pathlib import Path

__all__ = [
    "BUNDLED_DECODER",
    "DECODER_FILES",
    "PACKAGE",
    "find_decoder",
    "write_decoder",
]

#: The npm package (package.json pins its release).
PACKAGE = "brotli-dec-wasm"
#: The decoder's files in the package's ``pkg/`` folder.
DECODER_JS = "brotli_dec_wasm.js"
DECODER_WASM = "brotli_dec_wasm_bg.wasm"
DECODER_FILES = (DECODER_JS, DECODER_WASM)
#: Where a released rollbook keeps them (``make dist``).
BUNDLED_DECODER = Path(__file__).resolve().parents[1] / "runtime" / PACKAGE
_REPO_MODULES = Path(__file__).resolve().parents[2] / "node_modules"


def find_decoder() -> Path:
    """The folder holding the decoder's files.

    Raises:
        rollbook.site_runtime.build.SitewideError: none of the places holds them.
    """
    for folder in (BUNDLED_DECODER, _REPO_MODULES / PACKAGE / "pkg"):
        if all((folder / name).is_file() for name in DECODER_FILES):
            return folder
    from rollbook.site_runtime.build import SitewideError

    raise SitewideError(
        f"the brotli decoder ({PACKAGE}) that unpacks Pyodide in the "
        "browser was not found: reinstall rollbook from a release (`pip install "
        "--force-reinstall rollbook`); in rollbook's own repository run `make setup`."
    )


def write_decoder(target: Path) -> list[str]:
    """Write the decoder's module and its gzipped WebAssembly into ``target``; their names."""
    folder = find_decoder()
    target.mkdir(parents=True, exist_ok=True)
    (target / DECODER_JS).write_bytes((folder / DECODER_JS).read_bytes())
    packed = gzip.compress((folder / DECODER_WASM).read_bytes(), compresslevel=9, mtime=0)
    (target / f"{DECODER_WASM}.gz").write_bytes(packed)
    return [DECODER_JS, f"{DECODER_WASM}.gz"]
