// What the `dub` CLI takes from the environment: the API key and base URL, each null when unset.
// Read here, not in src/config: the CLI is a client of the API, needs none of the service's
// settings, and so loads none of them (test/unit/dub/module-graph.test.ts). Listed in .env.example.

export function loadDubCliEnv(env: Record<string, string | undefined> = process.env): { apiKey: string | null; baseUrl: string | null } {
  const value = (name: string) => (env[name]?.trim() ? env[name]!.trim() : null);
  return { apiKey: value('DUB_API_KEY'), baseUrl: value('DUB_BASE_URL') };
}
