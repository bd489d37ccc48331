import type { Db } from './create-db';

export interface WorkspaceUsage {
  creditsPerSecond: number;
  granted: number;
  captured: number;
  reserved: number;
  asOf: Date;
}

/** One read gives a consistent snapshot: rate, balance and the database clock it was read at. */
export async function getWorkspaceUsage(db: Db, workspaceId: string): Promise<WorkspaceUsage | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .innerJoin('credit_balances', 'credit_balances.workspace_id', 'workspaces.id')
    .select((eb) => ['workspaces.credits_per_second', 'credit_balances.granted', 'credit_balances.captured', 'credit_balances.reserved', eb.fn<Date>('clock_timestamp').as('as_of')])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    creditsPerSecond: row.credits_per_second,
    granted: row.granted,
    captured: row.captured,
    reserved: row.reserved,
    asOf: row.as_of,
  };
}
