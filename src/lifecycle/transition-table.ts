// The one transition table (docs/design.md#lifecycle): every status a project, a language, a
// regeneration or a transcript review can move to, from where. The Mermaid diagrams in
// docs/design.md draw exactly these arrows; test/unit/lifecycle-transition-table.test.ts fails
// when the two disagree. A transition function of src/lifecycle checks its move here before it
// writes anything, so a move the table does not name fails loudly instead of being written.
// Pure data: no imports, so the unit test and every layer can read it.

/** `[*]` is the start (the row is created in the `to` state) and, as a `to`, the end: a project deleted. */
export const START = '[*]';

export const MACHINES = {
  project: [
    [START, 'awaiting_upload'],
    [START, 'validating'],
    ['awaiting_upload', 'validating'],
    ['awaiting_upload', 'failed'],
    ['validating', 'failed'],
    ['validating', 'processing'],
    ['processing', 'completed'],
    ['processing', 'partially_completed'],
    ['processing', 'failed'],
    ['completed', 'processing'],
    ['partially_completed', 'processing'],
    ['failed', 'processing'],
    // DELETE: an ended project becomes a tombstone (deleted_at), the end of its story.
    ['completed', START],
    ['partially_completed', START],
    ['failed', START],
  ],
  language: [
    [START, 'queued'],
    ['queued', 'translating'],
    ['translating', 'dubbing'],
    ['dubbing', 'publishing'],
    ['publishing', 'completed'],
    // A run of a reopened attempt can reach its publish step without passing the earlier ones
    // (a Web UI reset replaying from the publish, a retried publish): it completes from there.
    ['queued', 'completed'],
    ['translating', 'completed'],
    ['dubbing', 'completed'],
    ['queued', 'failed'],
    ['translating', 'failed'],
    ['dubbing', 'failed'],
    ['publishing', 'failed'],
    ['failed', 'queued'],
    ['completed', 'completed'],
  ],
  regeneration: [
    [START, 'running'],
    ['running', 'completed'],
    ['running', 'failed'],
  ],
  review: [
    [START, 'requested'],
    ['requested', 'in_review'],
    ['requested', 'expired'],
    ['in_review', 'verified'],
    ['in_review', 'expired'],
  ],
} as const;

export type Machine = keyof typeof MACHINES;
type Edge<M extends Machine> = (typeof MACHINES)[M][number];
export type StateOf<M extends Machine> = Exclude<Edge<M>[number], typeof START>;

/** Whether `from → to` is an arrow of the machine; staying where it is always is (a repeated step). */
export function canMove<M extends Machine>(machine: M, from: StateOf<M> | typeof START, to: StateOf<M> | typeof START): boolean {
  if (from === to) return true;
  return (MACHINES[machine] as readonly (readonly string[])[]).some(([a, b]) => a === from && b === to);
}

/** The states a machine may move to `to` from: what a guarded UPDATE puts in its WHERE. */
export function sourcesOf<M extends Machine>(machine: M, to: StateOf<M>): StateOf<M>[] {
  const from = (MACHINES[machine] as readonly (readonly string[])[]).filter(([a, b]) => b === to && a !== START).map(([a]) => a);
  return [...new Set([...from, to])] as StateOf<M>[];
}

/** A move the table does not have: a bug in the caller, never written. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly machine: Machine,
    readonly from: string,
    readonly to: string,
    readonly subject: string,
  ) {
    super(`${machine} ${subject}: no transition ${from} → ${to} (docs/design.md#lifecycle)`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertMove<M extends Machine>(machine: M, subject: string, from: StateOf<M> | typeof START, to: StateOf<M> | typeof START): void {
  if (!canMove(machine, from, to)) throw new IllegalTransitionError(machine, from, to, subject);
}
