import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { workflowSpanSinks } from '../../src/tracing/temporal-worker-tracing';
import { bundleWorkflows } from '../../src/worker/workflow-bundle';
import { installTemporalRuntime } from '../../src/worker/runtime';
import { historyFromJSON, type History } from '../helpers/history-json';
import { HISTORIES_DIR } from '../helpers/workflow-histories';
import { quietBundleLogger } from '../helpers/quiet-bundle-logger';

// Every recorded history (test/unit/workflow-histories, `npm run record:histories`) replays on
// the current workflow code, bundled as the worker bundles it: a change to the commands a
// workflow issues (activities, timers, children, what it waits for) that is not guarded by
// patched() fails here, as it would fail the runs still going when it deploys
// (docs/design.md#changing-a-workflow). No server: the SDK's replay worker runs in-process.

const FILES = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort();
const histories = new Map<string, History>(FILES.map((file) => [file, historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')))]));
const results = new Map<string, ReplayResult>();

/** The workflows whose runs last long enough to meet a deploy: each has a recorded history. */
const MAIN_WORKFLOWS = ['projectWorkflow', 'languageWorkflow', 'regenerateLanguageWorkflow', 'transcriptReviewWorkflow', 'webhookDeliveryWorkflow'];

beforeAll(async () => {
  installTemporalRuntime('error');
  // Bundled once for the whole file: webpack is most of this file's time.
  const code = await bundleWorkflows(quietBundleLogger);
  // The histories carry no workflow id; none of the workflows reads its own, so the file name stands in.
  const replays = Worker.runReplayHistories(
    { workflowBundle: { code }, sinks: workflowSpanSinks() },
    [...histories].map(([workflowId, history]) => ({ workflowId, history })),
  );
  for await (const result of replays) results.set(result.workflowId, result);
}, 120_000);

it.each(FILES)('%s replays on the current workflow code', (file) => {
  const result = results.get(file);
  expect(result).toBeDefined();
  if (result?.error) throw result.error;
});

it('holds a history of each main workflow', () => {
  const types = new Set([...histories.values()].map((history) => history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
  expect(MAIN_WORKFLOWS.filter((type) => !types.has(type))).toEqual([]);
});
