import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, register } from 'prom-client';
import type { Logger } from '../logger';

// GET /metrics in Prometheus text format, on its own port (METRICS_PORT), so it is never
// reachable through the public API's port and needs no key. `alsoFrom` lists other exporters of
// this process to append (the Temporal SDK core's, which binds its own loopback port), so one
// scrape target per process gives everything.

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

let defaultsCollected = false;

export async function startMetricsServer(options: { host: string; port: number; service: string; logger: Logger; alsoFrom?: string[] }): Promise<MetricsServer> {
  if (!defaultsCollected) {
    defaultsCollected = true;
    register.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ prefix: 'dubbing_' });
  }
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    void render(options.alsoFrom ?? [], options.logger).then(
      (text) => res.writeHead(200, { 'content-type': register.contentType }).end(text),
      (err: unknown) => {
        options.logger.error('metrics scrape failed', { err });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function render(alsoFrom: string[], logger: Logger): Promise<string> {
  const parts = [await register.metrics()];
  for (const url of alsoFrom) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) parts.push(await response.text());
    } catch (err) {
      // The process's own metrics still count; the missing exporter shows as absent series.
      logger.warn('metrics exporter unreachable', { url, err });
    }
  }
  return parts.map((p) => p.trimEnd()).join('\n') + '\n';
}
