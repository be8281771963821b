/**
 * A loopback HTTP server that keeps every request it receives (path, headers, raw body) and
 * answers with a status chosen per path (200 unless told), for tests of outbound deliveries.
 */
import http from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answer requests to `path` with `status` from now on. */
  answer(path: string, status: number): void;
  on(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const statuses = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.get(path) ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver failure');
    });
  });
  const { url } = await listenOnLoopback(server);
  return {
    url,
    requests,
    answer: (path, status) => statuses.set(path, status),
    on: (path) => requests.filter((request) => request.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
