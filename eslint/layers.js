// @ts-check
// The layers of src/ and which way they point (docs/design.md#layers), as lint rules: an import
// that points the wrong way fails `make lint`, and so `make test`. Each folder lists the
// top-level folders it must not import; `types` lists those it may import types from only.
// Imports are matched as written (`../db/projects`, `../../api/app`), by the first folder name
// after the `../` steps, so a folder's own subfolders never match.

const NODE_BUILTINS = require('node:module').builtinModules.filter((m) => !m.startsWith('_'));

/** Everything that touches the outside world or runs the service. */
const SERVICE = [
  'db',
  'lifecycle',
  'pipeline',
  'api',
  'activities',
  'workflows',
  'worker',
  'cli',
  'dub',
  'engines',
  'storage',
  'sources',
  'temporal',
  'webhooks',
  'metrics',
  'tracing',
  'fleet',
  'auth',
  'config',
  'logger',
  'project-view',
  'notes',
];
/** What sits above the service layers: processes and their entry points. */
const ENTRY = ['api', 'worker', 'cli', 'dub'];

const upward = (folder) => `^(\\.\\./)+${folder}(/|$)`;

/** @type {Array<{ folder: string, forbid: string[], types?: string[], packages?: Array<{ name: string, message: string }>, packagePatterns?: string[], why: string }>} */
const ZONES = [
  { folder: 'src/shared', forbid: SERVICE, why: 'shared holds pure code both sides use: no I/O, no service layer' },
  { folder: 'src/publish', forbid: SERVICE, why: 'publish formats captions and files: pure code' },
  { folder: 'src/audio', forbid: SERVICE, why: 'audio holds the loudness presets, levelling and gain math and the ebur128 reading (docs/audio.md): pure code the API and the worker share' },
  { folder: 'src/captions', forbid: SERVICE, why: 'captions hold the timed-text rules, cue timing and QC (docs/captions.md): pure code the API and the worker share' },
  { folder: 'src/client', forbid: [...SERVICE, 'shared'], why: 'the client SDK stands alone: it is what a customer installs' },
  {
    folder: 'src/dub',
    forbid: SERVICE,
    why: 'the dub CLI is a customer tool: it talks to the API through src/client, with pure shared modules, and reads its own two variables (src/dub/dub-env.ts), not the service configuration (docs/cli.md)',
    packages: ['pg', 'kysely', 'prom-client', 'dataloader', 'koa', 'pino'].map((name) => ({ name, message: 'the dub CLI loads no server code' })),
    packagePatterns: ['@temporalio/*', '@aws-sdk/*'],
  },
  {
    folder: 'src/db',
    forbid: [...ENTRY, 'activities', 'workflows', 'metrics', 'storage', 'sources', 'temporal', 'webhooks', 'project-view', 'fleet', 'auth', 'notes', 'engines'],
    why: 'db holds table types and queries: observers listen to it, it calls nobody; what it stores of the engines is typed in src/shared',
  },
  {
    folder: 'src/lifecycle',
    forbid: [...ENTRY, 'activities', 'workflows', 'temporal', 'storage', 'engines', 'sources', 'fleet', 'metrics', 'project-view'],
    why: "the lifecycle moves statuses, money and events inside the caller's transaction: it starts no workflow and touches no media (docs/design.md#lifecycle)",
  },
  {
    folder: 'src/pipeline',
    forbid: [...ENTRY, 'activities', 'workflows', 'temporal', 'lifecycle', 'webhooks', 'sources', 'fleet', 'metrics', 'project-view', 'auth', 'notes'],
    types: ['db'],
    packagePatterns: ['@temporalio/*'],
    why: 'the dubbing pipeline renders a language from what it is given: no Temporal, no database writes, no workflow; the activities are its thin adapters (docs/design.md#layout)',
  },
  {
    folder: 'src/project-view',
    forbid: [...ENTRY, 'activities', 'workflows', 'webhooks', 'temporal', 'storage', 'engines'],
    why: 'the project view is the public shape of a project, read by the API and webhooks alike',
  },
  {
    folder: 'src/notes',
    forbid: [...ENTRY, 'activities', 'workflows', 'temporal', 'storage', 'engines'],
    types: ['db'],
    why: 'notes holds the meeting import record, shared by the API and the console',
  },
  { folder: 'src/sources', forbid: [...ENTRY, 'db', 'activities', 'workflows'], why: 'sources fetch media from outside; activities store what they find' },
  { folder: 'src/webhooks', forbid: [...ENTRY, 'activities', 'workflows'], why: 'webhooks are sent by activities and shown by the API; they depend on neither' },
  { folder: 'src/engines', forbid: [...ENTRY, 'activities', 'workflows', 'webhooks', 'sources'], why: 'engines are media programs behind interfaces' },
  { folder: 'src/storage', forbid: [...ENTRY, 'activities', 'workflows', 'webhooks', 'sources', 'engines'], why: 'storage is the blob store behind one interface' },
  { folder: 'src/auth', forbid: [...ENTRY, 'activities', 'workflows'], why: 'auth resolves keys; the API uses it' },
  { folder: 'src/metrics', forbid: [...ENTRY, 'activities', 'workflows'], why: 'metrics observe the layers below them' },
  { folder: 'src/tracing', forbid: [...ENTRY, 'activities', 'workflows', 'db'], why: 'tracing is set up by each process' },
  { folder: 'src/fleet', forbid: [...ENTRY, 'activities', 'workflows'], why: 'fleet routes media work to capable workers' },
  { folder: 'src/net', forbid: SERVICE, why: 'net holds address checks: pure code' },
  { folder: 'src/temporal', forbid: ENTRY, types: ['workflows', 'activities'], why: 'temporal starts and signals workflows, typed by their functions (import type)' },
  { folder: 'src/activities', forbid: ENTRY, types: ['workflows'], why: 'activities are called by workflows, never by the API' },
  {
    folder: 'src/api',
    forbid: ['worker', 'cli', 'dub', 'activities', 'engines'],
    types: ['workflows'],
    why: 'the API starts workflows and reads tables; activities and engines belong to the worker (what workers publish of their engines is typed in src/shared)',
  },
  { folder: 'src/cli', forbid: ['api', 'worker', 'dub'], types: ['workflows'], why: 'the operator console works on the database and Temporal, not through API internals' },
  { folder: 'src/worker', forbid: ['api', 'cli', 'dub'], why: 'the worker runs activities and workflows' },
  {
    folder: 'src/workflows',
    forbid: ['db', 'api', 'engines', 'storage', 'sources', 'worker', 'cli', 'dub', 'webhooks', 'temporal', 'metrics', 'config', 'fleet', 'auth', 'logger', 'project-view'],
    types: ['activities', 'lifecycle'],
    packages: [
      ...NODE_BUILTINS.flatMap((name) => [name, `node:${name}`]).map((name) => ({ name, message: 'workflows are replayed: no Node built-ins' })),
      { name: 'pg', message: 'workflows cannot touch the database; use an activity' },
      { name: 'kysely', message: 'workflows cannot touch the database; use an activity' },
      ...['@temporalio/worker', '@temporalio/client', '@temporalio/activity'].map((name) => ({ name, message: 'workflow code imports @temporalio/workflow only' })),
    ],
    why: 'workflows are replayed and must be deterministic: they call activities, by type only',
  },
];

/** Migrations are frozen in time; seeds go through the same paths as operators. */
const DB_FOLDERS = [
  { files: ['db/migrations/**/*.ts'], regex: '(^|/)src/', why: 'a migration is frozen in time: it imports no application code' },
  { files: ['db/seeds/**/*.ts'], regex: '(^|/)src/(api|worker|activities|workflows)(/|$)', why: 'seeds use the console and db layers, not API internals' },
];

/**
 * Queries live in src/db (docs/design.md#layers): a query-builder call or a `sql` template
 * anywhere else in src/ fails lint. A caller asks src/db by name (lockProject, listStaleReviews…)
 * and owns the transaction it passes in.
 */
const QUERY_SELECTORS = [
  { selector: 'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]', what: 'a query-builder call' },
  { selector: "TaggedTemplateExpression[tag.name='sql']", what: 'a sql`…` template' },
  { selector: "CallExpression[callee.object.name='sql']", what: 'a sql helper (sql.raw, sql.ref, …)' },
  // pg's own query(text) / query({ text }): SQL written as a string or template literal.
  { selector: "CallExpression[callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral)$/]", what: 'SQL text passed to query()' },
  { selector: "CallExpression[callee.property.name='query'] > ObjectExpression > Property[key.name='text']", what: 'SQL text passed to query()' },
];

const queryRules = QUERY_SELECTORS.map(({ selector, what }) => ({ selector, message: `Queries live in src/db (docs/design.md#layers): move ${what} into a query function there and call it.` }));

/**
 * Statuses move only through src/lifecycle (docs/design.md#lifecycle): the queries that write a
 * status column live in src/db/status-writes.ts, which nothing else imports, and no other query
 * of src/db sets one. (The generic setters refuse status columns by type as well.) Webhook events
 * are appended the same way: src/db/outbox-appends.ts is the lifecycle's alone.
 */
const STATUS_WRITES_IMPORT = [
  {
    selector: 'ImportDeclaration[source.value=/(^|\\/)db\\/status-writes$/]',
    message: 'Only src/lifecycle writes statuses (docs/design.md#lifecycle): call a transition function there instead of src/db/status-writes.',
  },
  // An event is news of a transition, appended in its transaction: never derived elsewhere.
  {
    selector: 'ImportDeclaration[source.value=/(^|\\/)db\\/outbox-appends$/]',
    message: 'Only src/lifecycle appends webhook events (docs/design.md#lifecycle): the transition that is news appends them (src/lifecycle/project-events.ts).',
  },
];
const LIFECYCLE_TABLES = 'projects|project_languages|language_regenerations|transcript_reviews';
const STATUS_COLUMN_WRITES = [
  {
    selector: `CallExpression[callee.property.name='set'][callee.object.callee.property.name='updateTable'][callee.object.arguments.0.value=/^(${LIFECYCLE_TABLES})$/] > ObjectExpression > Property[key.name=/^(status|usage_state|transcript_review_status|deleted_at|claimed_revision|redub_revision)$/]`,
    message: 'A status column is written only in src/db/status-writes.ts, for src/lifecycle (docs/design.md#lifecycle).',
  },
];

const queriesLiveInDb = [
  { files: ['src/**/*.ts'], ignores: ['src/db/**', 'src/lifecycle/**'], rules: { 'no-restricted-syntax': ['error', ...queryRules, ...STATUS_WRITES_IMPORT] } },
  { files: ['src/lifecycle/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...queryRules] } },
  { files: ['src/db/**/*.ts'], ignores: ['src/db/status-writes.ts'], rules: { 'no-restricted-syntax': ['error', ...STATUS_COLUMN_WRITES] } },
];

function zoneConfig(zone) {
  const patterns = [];
  if (zone.packagePatterns?.length) patterns.push({ group: zone.packagePatterns, message: `${zone.folder}: ${zone.why}.` });
  if (zone.forbid.length) patterns.push({ regex: upward(`(${zone.forbid.join('|')})`), message: `${zone.folder}: ${zone.why}.` });
  if (zone.types?.length) patterns.push({ regex: upward(`(${zone.types.join('|')})`), allowTypeImports: true, message: `${zone.folder} imports types only from there (import type): ${zone.why}.` });
  return {
    files: [`${zone.folder}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: zone.packages ?? [], patterns }] },
  };
}

module.exports = [
  ...ZONES.map(zoneConfig),
  ...DB_FOLDERS.map(({ files, regex, why }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, message: `${why}.` }] }] },
  })),
  ...queriesLiveInDb,
];
module.exports.ZONES = ZONES;
