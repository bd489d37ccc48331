import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

// Runs test code between a real query and the app code that receives its result: the way to
// land a concurrent event (a revocation, a retry) in a race window deterministically, with the
// real database on both sides. Install it on the app's Kysely (startTestApi's `plugins`).

type Match = (node: RootOperationNode, result: QueryResult<UnknownRow>) => boolean;

export class QueryHook implements KyselyPlugin {
  private readonly nodes = new WeakMap<object, RootOperationNode>();
  private pending: { match: Match; run: () => Promise<void> } | undefined;

  /** The next query that matches waits for `run` before its result reaches the app. Once. */
  afterNext(match: Match, run: () => Promise<void>): void {
    this.pending = { match, run };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.pending) this.nodes.set(args.queryId, args.node);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.nodes.get(args.queryId);
    const pending = this.pending;
    if (pending && node && pending.match(node, args.result)) {
      this.pending = undefined;
      await pending.run();
    }
    return args.result;
  }
}

/** The table a statement names first (INSERT INTO t, SELECT … FROM t, UPDATE t). */
function firstTable(node: RootOperationNode): string | undefined {
  const n = node as any;
  const table = n.into ?? n.table ?? n.from?.froms?.[0];
  return (table?.table ?? table?.node?.table)?.identifier?.name;
}

export const insertInto =
  (table: string): Match =>
  (node) =>
    node.kind === 'InsertQueryNode' && firstTable(node) === table;
export const selectFrom =
  (table: string): Match =>
  (node) =>
    node.kind === 'SelectQueryNode' && firstTable(node) === table;

/** Counts the app's statements that match, e.g. key reads: `counter.count` after the requests. */
export class QueryCounter implements KyselyPlugin {
  count = 0;

  constructor(private readonly match: (node: RootOperationNode) => boolean) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.match(args.node)) this.count++;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
