// Globals the page modules in rollbook/assets read or set, for `tsc --checkJs` only (nothing
// here is shipped: the site gets the .js files as they are).

/** The few parts of an RxJS subject that Material exposes and we use. */
interface MaterialSubject<T> {
  subscribe(next: (value: T) => void): unknown;
  next(value: T): void;
}

interface Window {
  /** Test and benchmark hooks set by rollbook.js (live getters). */
  rollbook?: Record<string, unknown>;
  /** Material for MkDocs: emits the document after the first load and every instant navigation. */
  document$?: MaterialSubject<Document>;
  /** Material for MkDocs: instant navigation moves to the URL passed to `next`. */
  location$?: MaterialSubject<URL>;
}
