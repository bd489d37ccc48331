import net from 'node:net';

// A pass-through TCP proxy in front of PostgreSQL that counts the client's round trips: every
// extended-protocol Sync ('S', one per parameterized statement) and every simple Query ('Q',
// e.g. BEGIN/COMMIT). Point a service's DATABASE_URL at it to count what one request costs.

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export interface CountingProxy {
  port: number;
  /** Round trips (Sync + simple Query messages) seen so far, and the statements by kind. */
  counts(): { roundTrips: number; syncs: number; simpleQueries: number };
  close(): Promise<void>;
}

export async function startCountingProxy(target: { host: string; port: number }): Promise<CountingProxy> {
  let syncs = 0;
  let simpleQueries = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    upstream.pipe(client);

    let pending: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (!started) {
          // Untyped start-up packets: length, then a code (SSL/GSS request or protocol version).
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST) started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === 'S') syncs++;
        else if (type === 'Q') simpleQueries++;
        pending = pending.subarray(length + 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    counts: () => ({ roundTrips: syncs + simpleQueries, syncs, simpleQueries }),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
