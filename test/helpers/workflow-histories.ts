import path from 'node:path';

// Recorded workflow histories (docs/design.md#changing-a-workflow): written by
// test/record/workflow-histories.record.ts (`npm run record:histories`), replayed by
// test/unit/workflow-replay.test.ts against the current workflow code.

export const HISTORIES_DIR = path.resolve(__dirname, '..', 'unit', 'workflow-histories');

/**
 * `<name>.<label>.json`. The label (the recording's date by default) keeps a new recording beside
 * the older ones: a history recorded before a change stands for the runs still going when it
 * lands, so it stays until its patch is deprecated.
 */
export const historyFileName = (name: string, label: string): string => `${name}.${label}.json`;
