import type Koa from 'koa';

/**
 * Listens on 127.0.0.1 like the real API (same keep-alive timeout) and exits cleanly on SIGTERM
 * or SIGINT after `close` (the pool), so the benchmark can stop its child servers. For the bare
 * and breakdown servers the benchmarks start.
 */
export function serveUntilSignalled(app: Koa, port: number, close: () => Promise<unknown>): void {
  const server = app.listen(port, '127.0.0.1');
  server.keepAliveTimeout = 65_000; // as src/api/server.ts
  const shutdown = () => {
    server.close(() => void close().then(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
