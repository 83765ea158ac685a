// @ts-check
// The contracts between the page, the engine worker, the offline service worker and the
// Python bridge, as JSDoc types that `tsc --strict --checkJs` holds every module to
// (ARCHITECTURE.md, "Engine: browser bridge"): each request with the reply of its kind,
// and the messages each side posts. Types only: importing this module costs nothing at
// run time.

/**
 * A fraction as the engine writes it: "p/q" (always with the slash).
 * @typedef {string} Fraction
 */

/**
 * A roll total: a number, or a list for comma rolls (`d6,d6`).
 * @typedef {number | Fraction | Array<number | Fraction>} Total
 */

/**
 * Prompt name -> value (whole numbers; the page passes text on as typed and the engine
 * refuses it with a sentence).
 * @typedef {Record<string, number | string>} PromptValues
 */

/**
 * One prompt of a table (Prompt.to_dict()); hand-written payloads may give just its name.
 * @typedef {{name: string, label?: string | null, help_text?: string | null, type?: string,
 *   min?: number | null, max?: number | null}} PromptSpec
 */

/**
 * One row of a table payload: its key as written, its cells (HTML) and the nested rolls
 * it makes (rollbook/engine/tables/model.py `_row_dict`).
 * @typedef {{key?: string | null, cells: string[], nested?: Array<Record<string, unknown>>}} TableRow
 */

/**
 * The table payload a block carries in its `template.rb-data` (Table.to_dict()); `refs`:
 * the tables its rows roll, by reference; `column`: for a table roll written in running
 * text, the column whose cell it shows. The engine reads the rest (tabs, button, ...).
 * @typedef {{rollbook: number, kind: "table" | "list", roll: string, rows: TableRow[],
 *   headers?: string[], roll_name?: string | null, prompts?: Array<PromptSpec | string>,
 *   result_text?: string | boolean | null, refs?: Record<string, TablePayload>,
 *   column?: string | null, [field: string]: unknown}} TablePayload
 */

/**
 * Stat blocks of a fight, by side, in order.
 * @typedef {Array<[string, object[]]> | Record<string, object[]>} Sides
 */

// ---- requests (page -> bridge) --------------------------------------------------------

/** @typedef {{op: "roll", expr: string, seed?: number, language?: string}} RollRequest */
/** @typedef {{op: "odds", expr: string, language?: string}} OddsRequest */
/** @typedef {{op: "table", table: TablePayload, seed?: number, prompts?: PromptValues}} TableRequest */
/** @typedef {{op: "table_odds", table: TablePayload, prompts?: PromptValues}} TableOddsRequest */
/** @typedef {{op: "rules", system: string, procedure: string, params: object, seed?: number}} RulesRequest */
/** @typedef {{op: "fight", system: string, sides: Sides, seed?: number, rounds?: number}} FightRequest */
/** @typedef {{op: "simulate", system: string, sides: Sides, runs: number, seed?: number}} SimulateRequest */

/**
 * @typedef {RollRequest | OddsRequest | TableRequest | TableOddsRequest | RulesRequest
 *   | FightRequest | SimulateRequest} BridgeRequest
 */

// ---- replies (bridge -> page) ---------------------------------------------------------

/**
 * A sentence of the engine for a reader (rollbook/engine/messages.py): a catalogue key and
 * its arguments (text, numbers, other messages, or `{sep, items}` lists).
 * @typedef {{key: string, args?: Record<string, unknown>}} EngineMessage
 */

/**
 * Every failure, from the engine or the page's own handling: one sentence, never a trace.
 * `caret`: for a notation the engine could not read, the notation with a caret under the
 * place it stopped (dice box); `prompt`: the name of the prompt whose value was refused
 * (table widgets mark that input); `message`: the engine's sentence as a catalogue key and
 * arguments (engine/messages.py), which the page says in the reader's language in place of
 * the English `error` (said.js).
 * @typedef {{error: string, kind: string, caret?: string, prompt?: string | null,
 *   message?: EngineMessage}} ErrorReply
 */

/**
 * What every successful reply has in common: no `error`, so `reply.error !== undefined`
 * tells a failure from a reply of the request's kind (and narrows the type to either).
 * @typedef {{error?: undefined}} NoError
 */

/**
 * A roll: its notation, total, every die as text and as parts, and the exact total when it
 * is a fraction.
 * @typedef {NoError & {notation: string, total: Total, text: string, parts: object[],
 *   exact?: Fraction | Fraction[]}} RollReply
 */

/**
 * A roll's exact odds: its least, greatest and mean total, and each total's chance.
 * @typedef {NoError & {min: number | Fraction, max: number | Fraction, mean: Fraction,
 *   distribution: Array<[number | Fraction, Fraction]>}} OddsReply
 */

/**
 * One nested roll of a table's hit row, in the order of the row's parts: dice (the roll's
 * reply) or a referenced table (its table reply and the reference as written).
 * @typedef {{kind: "dice", roll: RollReply}
 *   | ({kind: "table", ref: string} & NoError & TableRollReply)} NestedResult
 */

/**
 * A table roll: the dice (`roll`; just `{total}` when the engine has no dice record), the hit
 * row's index (null: no row covers the total), the result sentence (HTML; null when the
 * table shows none), the tab holding the row, and the row's nested rolls.
 * `said`: when no row covers the total, `text` as an engine message (said.js says it).
 * @typedef {{roll: RollReply | {total: Total}, row: number | null, text: string | null,
 *   tab: string | null, nested?: NestedResult[], said?: EngineMessage}} TableRollReply
 */
/** @typedef {NoError & TableRollReply} TableReply */
/** @typedef {NoError & {chances: Fraction[], prompts: PromptValues}} TableOddsReply */

/** @typedef {NoError & Record<string, unknown>} RulesReply */

/**
 * One combatant as a fight reports it.
 * @typedef {{name: string, side: string, hp: number, max_hp: number, out: string | null,
 *   status?: Record<string, unknown>}} CombatantState
 */

/**
 * `log` in English, `events` the same lines as catalogue keys and arguments (said.js says
 * them in the reader's language, into `log`).
 * @typedef {NoError & {system: string, round: number, log: string[], events?: EngineMessage[],
 *   combatants: CombatantState[],
 *   result: {winner: string | null, reason: string, rounds: number} | null}} FightReply
 */

/**
 * @typedef {NoError & {system: string, runs: number, seed: number, wins: Record<string, number>,
 *   rates: Record<string, number>, ci95: Record<string, [number, number]>,
 *   fled: Record<string, number>, stalemate: number, avg_rounds: number}} SimulateReply
 */

/**
 * The reply of each kind of request, by its `op`.
 * @typedef {{roll: RollReply, odds: OddsReply, table: TableReply, table_odds: TableOddsReply,
 *   rules: RulesReply, fight: FightReply, simulate: SimulateReply}} Replies
 */

/**
 * What the bridge answers a request of kind `Op`: a reply of that kind, or an error.
 * Widgets check `reply.error !== undefined` first.
 * @template {BridgeRequest["op"]} Op
 * @typedef {Replies[Op] | ErrorReply} ReplyTo
 */

/**
 * Whatever the bridge answers, of any kind.
 * @typedef {ReplyTo<BridgeRequest["op"]>} BridgeReply
 */

// ---- the engine's manifest (assets/rollbook/manifest.json) ------------------------------

/**
 * A wheel the manifest names: its path under assets/rollbook/ and its SHA-256 (hex).
 * @typedef {{path: string, sha256: string}} WheelEntry
 */

/**
 * What the worker and the page read of the manifest the build writes
 * (rollbook/site_runtime/build.py; snapshot.py and rollbook/offline add to it): where
 * Pyodide is (`pyodide`, relative to the manifest; absent when the site has no runtime, and
 * `no_runtime` says why), which of its files are served brotli-compressed, the lock's `info`, the
 * wheels (`engine`, `icepool`; `wheels`: every path), the snapshot (file, bytes of memory,
 * bytes to download), what is served as bytecode, a start-up deadline, and the offline
 * worker (false: offline reading is off). Served by the site, so read defensively.
 * @typedef {{pyodide?: string, pyodide_br?: string[], lock_info?: object, no_runtime?: string,
 *   wheels?: string[], engine?: WheelEntry, icepool?: WheelEntry, snapshot?: string,
 *   snapshot_bytes?: number, snapshot_size?: number, bytecode?: string[],
 *   startup_deadline_ms?: number, offline?: {worker: string} | false,
 *   [field: string]: unknown}} EngineManifest
 */

// ---- messages between the page (engine.js) and the worker (worker.js) -------------------

/**
 * Page -> worker: `wasm` only from the page's head, before anything else (it preloads
 * Pyodide's WebAssembly at `url`, absolute, since `asked`, ms since the epoch: worker.js
 * `startEarly`), and `timed` once it is in (the page's Resource Timing of it, for the
 * link's rate: linkspeed.js `networkRate`); `init` once, first otherwise (the URL of the
 * engine's manifest.json); `later` when the page is idle (import the rest of the engine);
 * `request` with a bridge request's JSON.
 * @typedef {{type: "wasm", url: string, asked: number}
 *   | {type: "timed", entry: {transferSize: number, encodedBodySize: number,
 *       responseStart: number, responseEnd: number}}
 *   | {type: "init", manifest: string}
 *   | {type: "later"}
 *   | {type: "request", id: number, json: string}} ToWorker
 */

/**
 * What a request found in the worker: the modules imported for it before it began, the
 * background modules still missing then, and how many were imported while it ran.
 * @typedef {{waited: string[], notYet: string[], during: number}} ImportRecord
 */

/**
 * Why the worker fetched the build's memory snapshot or not (worker/linkspeed.js): `rate`
 * (as the worker took the bytes in) and `timed` (the browser's own timing of a finished
 * download) in bytes per second, or null when they did not decide; the rest describe the
 * device.
 * @typedef {{use: boolean, reason: string, rate?: number | null, timed?: number | null,
 *   slowdown?: number, cores?: number | null, memory?: number | null}} SnapshotChoice
 */

/**
 * Worker -> page: `deadline` (the manifest's start-up deadline, if it sets one), then
 * `ready` (ms from the worker's start; marks: ms to each start-up step) or `failed` (an
 * English clause for the console, the catalogue key that says it to the reader and the file
 * it names); per request `begin` (its modules are in, its second starts) and `reply`.
 * @typedef {{type: "deadline", ms: number}
 *   | {type: "ready", ms: number, marks: Record<string, number>, restored: boolean,
 *       choice: SnapshotChoice | null}
 *   | {type: "failed", error: string, key: string, file: string}
 *   | {type: "begin", id: number}
 *   | {type: "reply", id: number, json: string, imports: ImportRecord}} FromWorker
 */

// ---- messages between the page (offline.js) and the offline service worker -------------

/**
 * Page -> service worker: `visited` (the page and what it loaded before the worker
 * controlled it: kept), `save` (keep the whole site), `status` (what is kept).
 * @typedef {{type: "visited", urls: string[]} | {type: "save"} | {type: "status"}} ToServiceWorker
 */

/**
 * What the service worker holds of the site: its version, the site's pages and those kept,
 * the bytes of the site and of what is kept, and whether all of it is kept.
 * @typedef {{version: string, pages: number, pagesHeld: number, siteBytes: number,
 *   heldBytes: number, saved: boolean}} OfflineStatus
 */

/**
 * Service worker -> page: `status` (the answer to `status` and `visited`), `progress` of a
 * `save` (bytes), `saved` (its end: the status, and how many files failed), `updated` (a
 * new version took over the page).
 * @typedef {({type: "status"} & OfflineStatus)
 *   | {type: "progress", done: number, total: number}
 *   | ({type: "saved", failed: number} & OfflineStatus)
 *   | {type: "updated", version: string}} FromServiceWorker
 */

export {};
