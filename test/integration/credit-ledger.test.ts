import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../src/db/database';
import { captureFromHold, getBalance, grantCredits, holdCredits, InsufficientCreditsError, releaseHold } from '../../src/db/credits';
import { createDb, type Db } from '../../src/db/create-db';
import { createTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

let db: Db;
beforeAll(() => {
  db = createDb({ url: testConfig().database.url!, poolMax: 20 });
});
afterAll(() => db.destroy());

const inTrx = <T>(work: (trx: Transaction<Database>) => Promise<T>) => db.transaction().execute(work);

describe('credit ledger', () => {
  it('never reserves more than the balance under 40 concurrent holds', async () => {
    const { workspace } = await createTenant(db, { credits: 1000 });
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => inTrx((trx) => holdCredits(trx, { workspaceId: workspace.id, reference: randomUUID(), amount: 100 }))));
    const won = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(won).toBe(10);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await getBalance(db, workspace.id)).toEqual({ granted: 1000, captured: 0, reserved: 1000 });
    const holds = await db
      .selectFrom('credit_holds')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(Number(holds.n)).toBe(10);
  });

  it('applies each reference once, however often it is retried', async () => {
    const { workspace } = await createTenant(db, { credits: 500 });
    const hold = `${randomUUID()}:hold`;
    const grant = `${randomUUID()}:grant`;
    for (let i = 0; i < 3; i++) {
      await inTrx((trx) => grantCredits(trx, { workspaceId: workspace.id, reference: grant, amount: 100 }));
      await inTrx((trx) => holdCredits(trx, { workspaceId: workspace.id, reference: hold, amount: 300 }));
      await inTrx((trx) => captureFromHold(trx, { workspaceId: workspace.id, holdReference: hold, reference: `${hold}:capture`, amount: 200 }));
      await inTrx((trx) => releaseHold(trx, { workspaceId: workspace.id, holdReference: hold, reference: `${hold}:release` }));
    }
    expect(await getBalance(db, workspace.id)).toEqual({ granted: 600, captured: 200, reserved: 0 });
    const entries = await db.selectFrom('credit_ledger').select(['kind', 'amount']).where('workspace_id', '=', workspace.id).orderBy('id').execute();
    expect(entries.map((e) => `${e.kind}:${e.amount}`)).toEqual(['grant:500', 'grant:100', 'hold:300', 'capture:200', 'release:100']);
  });

  it('refuses a hold larger than what is available and writes nothing', async () => {
    const { workspace } = await createTenant(db, { credits: 50 });
    const reference = randomUUID();
    await expect(inTrx((trx) => holdCredits(trx, { workspaceId: workspace.id, reference, amount: 51 }))).rejects.toThrow(InsufficientCreditsError);
    expect(await getBalance(db, workspace.id)).toEqual({ granted: 50, captured: 0, reserved: 0 });
    expect(await db.selectFrom('credit_ledger').selectAll().where('reference', '=', reference).execute()).toHaveLength(0);
  });

  it('lets the database CHECK stop an overdraft even if code skipped the guard', async () => {
    const { workspace } = await createTenant(db, { credits: 10 });
    await expect(db.updateTable('credit_balances').set({ reserved: 11 }).where('workspace_id', '=', workspace.id).execute()).rejects.toThrow(/credit_balances_not_overdrawn/);
  });
});
