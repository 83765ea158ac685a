// @ts-check
// The contracts between the page, the engine worker and the Python bridge, as JSDoc types
// that `tsc --checkJs` holds every module to (ARCHITECTURE.md, "Engine: browser bridge").
// Types only: importing this module costs nothing at run time.

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
 * @typedef {{name: string, label?: string, help_text?: string | null, type?: string,
 *   min?: number | null, max?: number | null} & Record<string, any>} PromptSpec
 */

/**
 * The table payload a block carries in its `template.rb-data` (Table.to_dict()).
 * @typedef {{rollbook: number, kind: "table" | "list", roll: string, rows: object[],
 *   roll_name?: string, prompts?: Array<PromptSpec | string>, result_text?: string}
 *   & Record<string, any>} TablePayload
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
 * Every failure, from the engine or the page's own handling: one sentence, never a trace.
 * `message`: the engine's sentence as a catalogue key and arguments (engine/messages.py);
 * the page says it in the reader's language (engine.js) in place of the English `error`.
 * @typedef {{error: string, kind: string, message?: {key: string, args?: Record<string, unknown>}}} ErrorReply
 */

/** @typedef {{notation: string, total: Total, text: string, parts: object[]}} RollReply */
/** @typedef {{min: number, max: number, mean: Fraction, distribution: Array<[number, Fraction]>}} OddsReply */
/** @typedef {{roll: RollReply, row: number | null, text: string, tab: string | null}} TableReply */
/** @typedef {{chances: Fraction[], prompts: PromptValues}} TableOddsReply */

/**
 * One combatant as a fight reports it.
 * @typedef {{name: string, side: string, hp: number, max_hp: number, out: string | null,
 *   status?: Record<string, unknown>}} CombatantState
 */

/**
 * `log` in English, `events` the same lines as catalogue keys and arguments (engine.js says
 * them in the reader's language, into `log`).
 * @typedef {{system: string, round: number, log: string[], events: Array<{key: string, args?: Record<string, unknown>}>,
 *   combatants: CombatantState[],
 *   result: {winner: string | null, reason: string, rounds: number} | null}} FightReply
 */

/**
 * @typedef {{system: string, runs: number, seed: number, wins: Record<string, number>,
 *   rates: Record<string, number>, ci95: Record<string, [number, number]>,
 *   fled: Record<string, number>, stalemate: number, avg_rounds: number}} SimulateReply
 */

/**
 * Whatever the bridge answers: a reply of the request's kind, or an error. Widgets check
 * `"error" in reply` first.
 * @typedef {Partial<RollReply & OddsReply & TableReply & TableOddsReply & FightReply
 *   & SimulateReply> & Partial<ErrorReply> & Record<string, any>} BridgeReply
 */

// ---- messages between the page (engine.js) and the worker (worker.js) -------------------

/**
 * @typedef {{type: "init", manifest: string}
 *   | {type: "later"}
 *   | {type: "request", id: number, json: string}} ToWorker
 */

/**
 * What a request found in the worker: the modules imported for it before it began, the
 * background modules still missing then, and how many were imported while it ran.
 * @typedef {{waited: string[], notYet: string[], during: number}} ImportRecord
 */

/**
 * @typedef {{type: "ready", ms: number, marks: Record<string, number>, restored: boolean}
 *   | {type: "failed", error: string, key?: string, file?: string}
 *   | {type: "begin", id: number}
 *   | {type: "reply", id: number, json: string, imports: ImportRecord}} FromWorker
 */

export {};
