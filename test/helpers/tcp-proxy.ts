import net from 'node:net';

// A loopback TCP proxy the test can cut and restore: the way to make a real server (the Temporal
// dev server here) unreachable for one client while everyone else keeps talking to it.

export interface CuttableProxy {
  /** host:port clients connect to; stays the same across cut and restore. */
  address: string;
  /** Refuses new connections and drops the open ones. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: string): Promise<CuttableProxy> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let listenPort = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(port, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stop = async () => {
    const closing = server ? new Promise((resolve) => server!.close(resolve)) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    await closing;
    server = undefined;
  };

  await listen();
  return {
    address: `127.0.0.1:${listenPort}`,
    cut: stop,
    restore: listen,
    close: stop,
  };
}
