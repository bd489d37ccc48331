import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Db } from './create-db';

export interface UserTable {
  id: Generated<string>;
  email: string;
  name: string;
  created_at: ColumnType<Date, never, never>;
}

export interface WorkspaceTable {
  id: Generated<string>;
  name: string;
  kind: 'personal' | 'team';
  owner_user_id: string | null;
  credits_per_second: number;
  created_at: ColumnType<Date, never, never>;
}

export type User = Selectable<UserTable>;
export type Workspace = Selectable<WorkspaceTable>;

export async function insertUser(db: Db, user: Insertable<UserTable>): Promise<User> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Creates the workspace and its (empty) balance row together: the caller owns the transaction. */
export async function insertWorkspace(db: Db, workspace: Insertable<WorkspaceTable>): Promise<Workspace> {
  const row = await db.insertInto('workspaces').values(workspace).returningAll().executeTakeFirstOrThrow();
  await db.insertInto('credit_balances').values({ workspace_id: row.id }).execute();
  return row;
}

export async function findWorkspace(db: Db, id: string): Promise<Workspace | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listWorkspaces(db: Db): Promise<Workspace[]> {
  return db.selectFrom('workspaces').selectAll().orderBy('created_at').execute();
}
