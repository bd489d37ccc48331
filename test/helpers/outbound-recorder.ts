import net from 'node:net';

// A stand-in proxy that records every connection a browser tries to make beyond this machine's
// loopback, and serves none of them: give it to Chromium as --proxy-server (Chromium never
// proxies loopback), and whatever the page would have fetched from the internet shows up here.

export interface OutboundRecorder {
  /** http://127.0.0.1:<port>, for --proxy-server. */
  url: string;
  /** The first line of each request the browser sent (e.g. `CONNECT fonts.googleapis.com:443 HTTP/1.1`). */
  attempts: string[];
  close(): Promise<void>;
}

export async function startOutboundRecorder(): Promise<OutboundRecorder> {
  const attempts: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      attempts.push(chunk.toString('latin1').split('\r\n')[0] ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
