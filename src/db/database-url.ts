import { DEFAULT_LOCAL_DATABASE_URL, type Config } from '../config';

/** DATABASE_URL when set; otherwise the conventional local server `make dev` prepares. */
export function databaseUrl(config: Config): string {
  return config.database.url ?? DEFAULT_LOCAL_DATABASE_URL;
}
