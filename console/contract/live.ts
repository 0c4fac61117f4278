// GET /api/live: a server-sent event stream; each `campaign` event's data is a LiveEvent, sent
// when the campaign's state.json is replaced (and for every campaign once on connect). Part of the
// API contract (index.ts): no imports.

export interface LiveEvent {
  readonly id: string;
  /** The campaign's root, relative to runs. */
  readonly dir: string;
  readonly phase: string;
  readonly generation: number;
  readonly candidate: number | null;
}
