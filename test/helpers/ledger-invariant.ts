import { sql, type Kysely } from 'kysely';

// The money invariant every test must leave behind: each workspace's balance row equals the sum
// of its ledger entries, the holds table agrees with what is reserved, and no project in a final
// state still has credits held. Read in one snapshot, so concurrent work cannot tear it.

export interface LedgerViolation {
  workspaceId: string;
  problem: string;
}

export async function findLedgerViolations(db: Kysely<any>, workspaceIds: string[] | 'all'): Promise<LedgerViolation[]> {
  if (workspaceIds !== 'all' && workspaceIds.length === 0) return [];
  const scope = workspaceIds === 'all' ? sql`true` : sql`b.workspace_id = any(${workspaceIds}::uuid[])`;
  const projectScope = workspaceIds === 'all' ? sql`true` : sql`p.workspace_id = any(${workspaceIds}::uuid[])`;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const balances = await sql<{ workspace_id: string; granted: string; captured: string; reserved: string; g: string; c: string; r: string; held: string }>`
      select b.workspace_id, b.granted, b.captured, b.reserved,
        coalesce(sum(l.amount) filter (where l.kind = 'grant'), 0) as g,
        coalesce(sum(l.amount) filter (where l.kind = 'capture'), 0) - coalesce(sum(l.amount) filter (where l.kind = 'refund'), 0) as c,
        coalesce(sum(l.amount) filter (where l.kind = 'hold'), 0)
          - coalesce(sum(l.amount) filter (where l.kind = 'capture' and l.hold_reference is not null), 0)
          - coalesce(sum(l.amount) filter (where l.kind = 'release'), 0) as r,
        (select coalesce(sum(h.remaining), 0) from credit_holds h where h.workspace_id = b.workspace_id) as held
      from credit_balances b left join credit_ledger l on l.workspace_id = b.workspace_id
      where ${scope}
      group by b.workspace_id`.execute(trx);
      const violations: LedgerViolation[] = [];
      for (const b of balances.rows) {
        const [granted, captured, reserved, g, c, r, held] = [b.granted, b.captured, b.reserved, b.g, b.c, b.r, b.held].map(Number) as [number, number, number, number, number, number, number];
        if (granted !== g) violations.push({ workspaceId: b.workspace_id, problem: `granted ${granted} but the ledger grants ${g}` });
        if (captured !== c) violations.push({ workspaceId: b.workspace_id, problem: `captured ${captured} but the ledger captures (net of refunds) ${c}` });
        if (reserved !== r) violations.push({ workspaceId: b.workspace_id, problem: `reserved ${reserved} but the ledger reserves ${r}` });
        if (reserved !== held) violations.push({ workspaceId: b.workspace_id, problem: `reserved ${reserved} but the holds keep ${held}` });
      }
      const stranded = await sql<{ workspace_id: string; id: string; status: string; remaining: string }>`
      select p.workspace_id, p.id, p.status, h.remaining from projects p join credit_holds h on h.reference = p.hold_reference
      where ${projectScope} and p.status in ('completed', 'partially_completed', 'failed') and h.remaining > 0`.execute(trx);
      for (const s of stranded.rows) violations.push({ workspaceId: s.workspace_id, problem: `project ${s.id} is ${s.status} with ${s.remaining} credits still held` });
      return violations;
    });
}
