/**
 * `sightline backup <archive.tar.gz>`: asks the service running on DATA_DIR over its control
 * socket, or, when none answers there, backs the stopped folder up itself (backup.ts). Progress
 * goes to stderr a step at a time, then one line with the archive's size and path.
 */
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config.js';
import {
  allEmbedded,
  backupStoppedFolder,
  checkArchivePath,
  SERVER_ENGINES_REFUSAL,
  writeArchive,
  type CommandOutput,
} from './backup.js';
import { controlSocketPath, FRAME, FrameDecoder, type DoneFrame, type FailedFrame } from './control-socket.js';
import { StartError } from './start-error.js';

export async function runBackup(config: Config, archiveArgument: string, out: CommandOutput): Promise<void> {
  if (!allEmbedded(config)) throw new StartError(SERVER_ENGINES_REFUSAL, 64);
  const archive = path.resolve(archiveArgument);
  checkArchivePath(archive);
  const socket = await connect(controlSocketPath(config.dataDir));
  const size = socket ? await backupFromService(socket, archive, out) : await backupStoppedFolder(config, archive, out);
  out.write(`done: ${(size / 1048576).toFixed(1)} MB written to ${archive}`);
}

/** The service's socket, or null when no service listens there (none runs, or it was killed). */
async function connect(socketPath: string): Promise<net.Socket | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => resolve(socket));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else if (error.code === 'EACCES')
        reject(
          new StartError(
            `not allowed to use the service's control socket ${socketPath}: run the backup as the user the service runs as`,
            77,
          ),
        );
      else reject(error);
    });
  });
}

/** Streams the service's archive into `<archive>.partial`, renamed once the service says it is whole. */
async function backupFromService(socket: net.Socket, archive: string, out: CommandOutput): Promise<number> {
  out.write('asking the running service');
  socket.write(`${JSON.stringify({ command: 'backup' })}\n`);
  let closing: { done: DoneFrame } | { failed: FailedFrame } | null = null;
  const decoder = new FrameDecoder();
  const cutShort = (reason: string) =>
    new StartError(`the service stopped before the backup was complete (${reason}); ${archive} was not written`, 1);
  async function* archiveBytes(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of socket as AsyncIterable<Buffer>) {
        for (const frame of decoder.push(chunk)) {
          const text = () => frame.payload.toString('utf8');
          if (frame.type === FRAME.data) yield frame.payload;
          else if (frame.type === FRAME.progress) out.write(text());
          else if (frame.type === FRAME.done) closing = { done: JSON.parse(text()) as DoneFrame };
          else if (frame.type === FRAME.failed) closing = { failed: JSON.parse(text()) as FailedFrame };
        }
      }
    } catch (error) {
      throw cutShort((error as Error).message);
    }
    // Ending without a closing frame: the service stopped or was killed mid-way.
    if (closing === null) throw cutShort('the connection closed');
    if ('failed' in closing) throw new StartError(closing.failed.message, closing.failed.exitCode);
  }
  try {
    return await writeArchive(archive, archiveBytes());
  } catch (error) {
    if (error instanceof StartError) throw error;
    throw new StartError(`cannot write ${archive}: ${(error as Error).message}`, 74); // EX_IOERR
  } finally {
    socket.destroy();
  }
}
