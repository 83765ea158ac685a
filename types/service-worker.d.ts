// The offline service worker's file list, which the build writes at the top of
// SITE/rollbook-sw.js as `const BUILD = {...};` (rollbook/offline/service_worker.py: its
// `ListedFile` and `FileKind` are the Python side of these types). For `tsc --checkJs` only.

/**
 * What a listed file is for: "engine" (the dice engine: cached when the worker installs),
 * "snapshot" (the engine's start-up snapshot: kept once the page started from it, or by
 * "save" unless the reader saves data), "shell" (what every page uses: theme, search index,
 * sitemap; cached at install), "page" (a page) and "other" (images, downloads): cached when
 * the reader opens or uses them, or all at once by "save"; "later": only once asked for.
 */
type FileKind = "engine" | "snapshot" | "shell" | "page" | "other" | "later";

/** One file of the site: the start of its SHA-256 (hex), its size in bytes, its kind. */
interface ListedFile {
  readonly hash: string;
  readonly size: number;
  readonly kind: FileKind;
}

/** The build's list: its version (a hash of every file's hash) and the files by path. */
interface OfflineBuild {
  readonly version: string;
  readonly files: Readonly<Record<string, ListedFile>>;
}

/** Written by the build above the worker's code. */
declare const BUILD: OfflineBuild;
