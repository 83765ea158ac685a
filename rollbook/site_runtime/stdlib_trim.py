"""A standard library zip holding only what Pyodide, the engine and icepool can import.

Pyodide's ``python_stdlib.zip`` is 2.5 MB of deflated sources, of which a dice engine
imports a small part. The site ships a zip of the *static* import closure instead: the
modules Pyodide imports at its own start-up (``STARTUP``, listed from a run of Pyodide
314) and every module the wheels' sources name in an ``import`` statement anywhere (in
functions and ``try`` blocks too), then everything those modules name, transitively.
Being static, the closure keeps the modules of rare paths (an error branch, a lazy
import) that a recorded run would miss; ``tests/build/test_stdlib_trim.py`` runs every
kind of bridge request in Pyodide on the trimmed zip and checks that the start-up list
is still complete. Left out by choice (``LEFT_OUT``): the bz2, lzma and zstd codecs,
which Pyodide's start loads only because ``shutil`` and ``zipfile`` try them for archive
formats nothing here reads; without them those imports fail quietly, as on a Python built
without the codecs, and Python's start is about 25 ms shorter.

Output is byte-identical for identical input: sorted entries, fixed times, deflate 9.
"""

from __future__ import annotations

import ast
import io
import re
import zipfile
from collections.abc import Iterable, Iterator

from rollbook.site_runtime.zips import zip_files

__all__ = ["LEFT_OUT", "STARTUP", "imports_of", "trim_stdlib"]

#: Modules Pyodide 314 imports from its zip by itself (start-up, ``pyodide.ffi``, the
#: event loop), and the codecs a browser hands text through.
STARTUP: tuple[str, ...] = (
    "__future__", "_colorize", "_collections_abc", "_py_warnings", "_pyodide",
    "_pyodide._base", "_pyodide._core_docs", "_pyodide._future_helper",
    "_pyodide._importhook", "_pyodide.docs_argspec", "_pyodide.docstring",
    "_pyodide.jsbind", "_sitebuiltins", "_weakrefset", "abc", "annotationlib", "ast",
    "asyncio", "base64", "bisect", "codecs", "codeop", "collections",
    "concurrent.futures", "contextlib", "contextvars",
    "copy", "copyreg", "dataclasses", "dis", "encodings", "encodings.aliases",
    "encodings.ascii", "encodings.latin_1", "encodings.utf_8", "encodings.utf_8_sig",
    "enum", "fnmatch", "functools", "genericpath", "glob", "heapq", "importlib",
    "importlib.abc", "importlib.machinery", "importlib.util", "inspect", "io", "json",
    "keyword", "linecache", "locale", "logging", "ntpath", "opcode", "operator",
    "os", "pathlib", "posixpath", "pyodide", "pyodide._package_loader", "pyodide._state",
    "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop", "random", "re",
    "reprlib", "selectors", "shutil", "signal", "site", "socket", "ssl", "stat", "string",
    "struct", "subprocess", "tempfile", "textwrap", "threading", "token", "tokenize",
    "traceback", "types", "typing", "warnings", "weakref", "zipfile", "zipimport",
)  # fmt: skip

#: Packages and modules never put in the zip, with all they contain (see the docstring):
#: only tried, inside ``try: ... except ImportError``, by ``shutil`` and ``zipfile``.
LEFT_OUT = ("bz2", "compression", "lzma")

_IMPORT_LINE = re.compile(
    r"^\s*(?:from\s+(\.*[\w.]*)\s+import\s+([\w, ()*]+)|import\s+([\w., ]+))", re.M
)


def _resolve(module: str, is_package: bool, level: int, name: str) -> str:
    """The absolute name of a relative import (``level`` dots) made in ``module``."""
    if not level:
        return name
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, name] if name else base)


#: ``NAME == VALUE`` comparisons never true when Pyodide imports a module: a script's
#: main, Windows (asyncio's Windows event loops, Windows code pages: 29 KB of the zip).
_NEVER_EQUAL = {
    ("__name__", "__main__"),
    ("sys.platform", "win32"),
    ("os.name", "nt"),
    ("_os.name", "nt"),
}


def _never_here(test: ast.expr) -> bool:
    """Whether an ``if`` test is never true when Pyodide imports the module.

    ``TYPE_CHECKING``, a ``_NEVER_EQUAL`` comparison, or an ``and`` holding one; a ``not``
    or an ``or`` may be true, so its block is read as run.
    """
    if isinstance(test, ast.BoolOp):
        return isinstance(test.op, ast.And) and any(_never_here(v) for v in test.values)
    if isinstance(test, ast.Name | ast.Attribute):
        return ast.unparse(test).rpartition(".")[2] == "TYPE_CHECKING"
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        right = test.comparators[0]
        value = right.value if isinstance(right, ast.Constant) else None
        return (ast.unparse(test.left), value) in _NEVER_EQUAL
    return False


def _executed(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes that run when the module is imported.

    Not function bodies, not the blocks of tests that are never true here (``_never_here``:
    their ``else`` runs).
    """
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.If) and _never_here(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def imports_of(
    source: bytes | str, module: str = "", is_package: bool = False, *, top_level: bool = False
) -> set[str]:
    """Every module name an import statement of ``source`` may load.

    ``from a import b`` gives ``a`` and ``a.b``; with ``top_level``, only those run by
    importing the module.
    Sources of a newer Python than this one are read line by line (indented imports are
    then taken for function-level ones).
    """
    found: set[str] = set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        for match in _IMPORT_LINE.finditer(text):
            if top_level and match.group(0)[:1].isspace():
                continue
            if match.group(3):
                found |= {n.split(" as ")[0].strip() for n in match.group(3).split(",")}
                continue
            dotted = match.group(1)
            level = len(dotted) - len(dotted.lstrip("."))
            base = _resolve(module, is_package, level, dotted.lstrip("."))
            found.add(base)
            names = match.group(2).replace("(", "").replace(")", "")
            found |= {f"{base}.{n.split(' as ')[0].strip()}" for n in names.split(",") if n.strip()}
        return {name for name in found if name}
    for node in _executed(tree) if top_level else ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module or "")
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names if alias.name != "*"}
    return {name for name in found if name}


def _modules(archive: zipfile.ZipFile) -> dict[str, tuple[str, bool]]:
    """{module name: (entry name, is a package)} of the .py files in ``archive``."""
    out: dict[str, tuple[str, bool]] = {}
    for name in archive.namelist():
        if not name.endswith(".py"):
            continue
        parts = name[:-3].split("/")
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (name, package)
    return out


def _closure(archive: zipfile.ZipFile, roots: Iterable[str]) -> set[str]:
    modules = _modules(archive)
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        if parts[0] in LEFT_OUT:
            continue
        for depth in range(1, len(parts) + 1):  # a module's packages are imported first
            prefix = ".".join(parts[:depth])
            if prefix in seen or prefix not in modules:
                continue
            seen.add(prefix)
            entry, package = modules[prefix]
            todo.extend(imports_of(archive.read(entry), prefix, package, top_level=True))
    return seen


def _wheel_imports(wheel: bytes) -> set[str]:
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        found: set[str] = set()
        for module, (entry, package) in _modules(archive).items():
            found |= imports_of(archive.read(entry), module, package)
        return found


def trim_stdlib(stdlib: bytes, wheels: Iterable[bytes]) -> bytes:
    """The zip ``stdlib`` cut to ``STARTUP`` and what the ``wheels`` import, transitively."""
    roots = set(STARTUP)
    for wheel in wheels:
        roots |= _wheel_imports(wheel)
    with zipfile.ZipFile(io.BytesIO(stdlib)) as source:
        keep = {
            source_entry
            for source_entry, _ in (_modules(source)[m] for m in _closure(source, roots))
        }
        return zip_files({name: source.read(name) for name in keep})
