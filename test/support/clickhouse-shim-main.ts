/**
 * The ClickHouse HTTP shim as its own process (`node --import tsx clickhouse-shim-main.ts <dir>`),
 * for tests whose own process holds chDB on another folder: chDB allows one data folder per
 * process. Prints `{"url": ...}` once listening and exits when its stdin closes.
 */
import { Session } from 'chdb';
import { startClickHouseShim } from './clickhouse-http-shim.js';

const session = new Session(process.argv[2]!);
const shim = await startClickHouseShim(session);
process.stdout.write(`${JSON.stringify({ url: shim.url })}\n`);
process.stdin
  .on('end', () => {
    void shim.close().then(() => {
      session.close();
      process.exit(0);
    });
  })
  .resume();
