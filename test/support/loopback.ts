/** Binding the tests' own servers to 127.0.0.1 on a port the OS picks, so that suites running side by side never collide. */
import type http from 'node:http';
import net from 'node:net';

/** Listens on 127.0.0.1 on a free port; answers the port and the http:// origin there. */
export async function listenOnLoopback(server: http.Server | net.Server): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, url: `http://127.0.0.1:${port}` };
}

/** A loopback port nothing listens on: bound, then released. */
export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
