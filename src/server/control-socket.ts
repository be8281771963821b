/**
 * The running service's control socket, `DATA_DIR/control.sock`: how `sightline backup` asks the
 * process that holds the data folder (its engines cannot be opened by a second process) for a
 * backup. Only embedded installations have one. Filesystem permissions are the authentication,
 * as with PostgreSQL's and Docker's sockets: the socket is the service user's, mode 0600, so only
 * that user (and root) may connect; nothing is reachable over the network. A socket left by a
 * killed service is removed at the next start (the data folder's lock is held by then), and the
 * socket is removed when the service stops.
 *
 * Protocol: the client sends one line of JSON (`{"command":"backup"}`); the service answers with
 * frames (a type byte, a 4-byte big-endian length, the payload): progress lines, the archive's
 * bytes, then one closing frame, `done` or `failed`. A connection that ends without a closing
 * frame is a backup cut short.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Services } from '../application/services.js';
import { dropBackupReaders, packStaged, removeStaleStaging, stageBackup, type BackupManifest } from './backup.js';

export const CONTROL_SOCKET = 'control.sock';

export const FRAME = { progress: 1, data: 2, done: 3, failed: 4 } as const;
type FrameType = (typeof FRAME)[keyof typeof FRAME];

export interface DoneFrame {
  manifest: BackupManifest;
}

export interface FailedFrame {
  message: string;
  exitCode: number;
}

/** Unix sockets' path limit (sun_path, 108 bytes with its NUL on Linux; 104 on macOS). */
const MAX_SOCKET_PATH = 103;

export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_SOCKET);
}

export function encodeFrame(type: FrameType, payload: Uint8Array | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(5);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(body.byteLength, 1);
  return Buffer.concat([header, body]);
}

/** Splits a byte stream into frames, however the stream's chunks fall. */
export class FrameDecoder {
  private buffered: Buffer = Buffer.alloc(0);

  *push(chunk: Buffer): Generator<{ type: number; payload: Buffer }> {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 5) {
      const length = this.buffered.readUInt32BE(1);
      if (this.buffered.length < 5 + length) return;
      const type = this.buffered.readUInt8(0);
      const payload = this.buffered.subarray(5, 5 + length);
      this.buffered = this.buffered.subarray(5 + length);
      yield { type, payload };
    }
  }
}

export interface ControlSocket {
  close(): Promise<void>;
}

/**
 * Listens on the data folder's control socket. Null when the path is too long for a Unix socket
 * (a deep DATA_DIR): the service runs, and `sightline backup` says the service does not answer.
 */
export async function listenControlSocket(services: Services): Promise<ControlSocket | null> {
  const { dataDir } = services.config;
  const socketPath = controlSocketPath(dataDir);
  // The data folder's lock is ours: a socket, staging folder or backup reader there is a killed service's.
  fs.rmSync(socketPath, { force: true });
  removeStaleStaging(dataDir);
  await dropBackupReaders(services.telemetry);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    services.log.warn(
      { socketPath },
      'the control socket path is too long for a Unix socket: online backups (sightline backup) are unavailable; use a shorter DATA_DIR',
    );
    return null;
  }
  let running: Promise<void> | null = null;
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => undefined); // a client gone mid-answer; the backup notices the close
    readRequest(socket)
      .then((request) => {
        if (request?.command !== 'backup') {
          socket.end(encodeFrame(FRAME.failed, failure('unknown request: this service answers "backup" only', 64)));
          return;
        }
        if (running) {
          socket.end(encodeFrame(FRAME.failed, failure('a backup is already running: try again when it ends', 75)));
          return;
        }
        running = answerBackup(services, socket).finally(() => {
          running = null;
        });
      })
      .catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Umask left it 0755 at most for this instant, and connecting needs write permission.
  fs.chmodSync(socketPath, 0o600);
  return {
    async close() {
      // A backup still running is cut short: its client sees no closing frame.
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running;
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** Resolves when the socket takes more, or has closed (the next write then notices). */
function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

function failure(message: string, exitCode: number): string {
  return JSON.stringify({ message, exitCode } satisfies FailedFrame);
}

/** The first line the client sends, parsed; null for anything else. */
function readRequest(socket: net.Socket): Promise<{ command?: unknown } | null> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end === -1 && text.length < 4096) return;
      socket.off('data', onData);
      try {
        resolve(JSON.parse(text.slice(0, end === -1 ? undefined : end)) as { command?: unknown });
      } catch {
        resolve(null);
      }
    };
    socket.on('data', onData);
    socket.once('end', () => resolve(null));
  });
}

/** Stages and streams one backup to `socket`; a client that goes away cancels it. */
async function answerBackup(services: Services, socket: net.Socket): Promise<void> {
  const cancellation = { cancelled: false };
  socket.once('close', () => {
    cancellation.cancelled = true;
  });
  const send = (type: FrameType, payload: Uint8Array | string) => {
    if (!socket.destroyed) socket.write(encodeFrame(type, payload));
  };
  services.log.info('backup requested on the control socket');
  try {
    if (services.config.objects.kind !== 'fs') throw new Error('objects are not embedded');
    const staged = await stageBackup(
      {
        dataDir: services.config.dataDir,
        meta: services.meta,
        telemetry: services.telemetry,
        objectsRoot: services.config.objects.root,
        flush: () => services.writer.drain(),
      },
      (line) => send(FRAME.progress, line),
      cancellation,
    );
    try {
      send(FRAME.progress, 'archive: writing');
      // The archive's bytes as frames, at the pace the client takes them.
      for await (const chunk of packStaged(staged)) {
        if (socket.destroyed) throw new Error('the client went away');
        if (!socket.write(encodeFrame(FRAME.data, chunk as Buffer))) await drained(socket);
      }
    } finally {
      staged.remove();
    }
    services.log.info({ rows: staged.manifest.telemetry.rows }, 'backup sent on the control socket');
    socket.end(encodeFrame(FRAME.done, JSON.stringify({ manifest: staged.manifest } satisfies DoneFrame)));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (cancellation.cancelled) {
      services.log.warn('backup cancelled: its connection closed (the client went away, or the service is stopping)');
      return;
    }
    services.log.error({ err: error }, 'backup failed');
    socket.end(encodeFrame(FRAME.failed, failure(`the backup failed: ${message.split('\n')[0]}`, 1)));
  }
}
