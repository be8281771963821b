/**
 * Outbound HTTP for alert deliveries. Only http(s) URLs; the host is resolved and every address
 * it resolves to is checked before connecting, and the connection goes to the checked address
 * (the `lookup` hook), so a DNS name pointing at 127.0.0.1 — or answering differently a moment
 * later — cannot reach the service's own loopback, link-local (cloud metadata) or private
 * networks. ALERTS_ALLOW_PRIVATE_TARGETS=true lifts the address check (receivers on the
 * operator's own network; the tests' loopback receivers). Bounded: 10 s, answer body capped.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

export interface OutboundResponse {
  status: number;
  body: string;
}

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * Checks the URL's form (scheme, no credentials) and, unless private targets are allowed, that its
 * host is not written as a loopback, private or link-local address (an IP, or localhost); throws
 * OutboundRefused with the reason. A name is checked again where it resolves, at every delivery.
 */
export function checkOutboundUrl(raw: string, options: OutboundOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefused('only http and https URLs are allowed');
  if (url.username || url.password) throw new OutboundRefused('credentials in the URL are not allowed');
  // A literal address skips the lookup hook of postOutbound: checked here, as is localhost, which
  // always resolves to the loopback (so a channel that could never deliver is refused at creation).
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && (isLoopbackName(literal) || (net.isIP(literal) && isPrivateAddress(literal))))
    throw new OutboundRefused(
      `${literal} is a loopback, private or link-local address; set ALERTS_ALLOW_PRIVATE_TARGETS=true to allow it`,
    );
  return url;
}

const isLoopbackName = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost');

/** Loopback, private, link-local, unspecified, multicast and other non-public ranges. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPrivateAddress(mapped[1]!);
  return (
    lower === '::' ||
    lower === '::1' ||
    lower.startsWith('fe8') ||
    lower.startsWith('fe9') ||
    lower.startsWith('fea') ||
    lower.startsWith('feb') ||
    lower.startsWith('fc') ||
    lower.startsWith('fd') ||
    lower.startsWith('ff') ||
    lower.startsWith('64:ff9b:')
  );
}

export interface OutboundOptions {
  allowPrivate: boolean;
}

/** POSTs `body`; resolves with the status and the start of the answer, rejects on refusal or network failure. */
export async function postOutbound(
  raw: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
): Promise<OutboundResponse> {
  const url = checkOutboundUrl(raw, options);
  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      const refused = options.allowPrivate ? undefined : list.find((entry) => isPrivateAddress(entry.address));
      if (refused || list.length === 0)
        return callback(
          new OutboundRefused(
            `${hostname} resolves to a loopback, private or link-local address (${refused?.address ?? 'none'}); set ALERTS_ALLOW_PRIVATE_TARGETS=true to allow it`,
          ),
          '',
          4,
        );
      if ((lookupOptions as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sightline-Alerts/1',
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
        },
        lookup,
        timeout: TIMEOUT_MS,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}
