/**
 * Telemetry engine for a ClickHouse server, over HTTP with the official client.
 * Same SQL as the embedded chDB engine; only the transport differs.
 */
import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { wrapErrors, checkIdentifier } from './chdb.js';
import { INSERT_SETTINGS, READ_SETTINGS, type QueryParams, type TelemetryEngine } from './engine.js';
import type { RowLayout } from './rows.js';

export interface ClickHouseHttpOptions {
  url: string;
  database: string;
  requestTimeoutMs?: number;
}

export async function openClickHouseHttp(options: ClickHouseHttpOptions): Promise<TelemetryEngine> {
  const bootstrap = createClient({ url: options.url, log: { level: ClickHouseLogLevel.OFF } });
  try {
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${checkIdentifier(options.database)}` });
  } finally {
    await bootstrap.close();
  }
  const client: ClickHouseClient = createClient({
    url: options.url,
    database: options.database,
    request_timeout: options.requestTimeoutMs ?? 60_000,
    // Failures surface as TelemetryQueryError and are logged once by the caller.
    log: { level: ClickHouseLogLevel.OFF },
  });

  return wrapErrors({
    engine: 'clickhouse-http',
    database: options.database,
    async query<T>(
      sql: string,
      params: QueryParams = {},
      settings: Record<string, string | number> = {},
    ): Promise<T[]> {
      const result = await client.query({
        query: sql,
        query_params: params,
        format: 'JSONEachRow',
        clickhouse_settings: { ...READ_SETTINGS, ...settings },
      });
      return result.json<T>();
    },
    async selectRowBinary(sql: string, params: QueryParams = {}): Promise<Buffer> {
      const result = await client.exec({
        query: `${sql}\nFORMAT RowBinary`,
        query_params: params,
        clickhouse_settings: READ_SETTINGS,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of result.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async command(sql: string, params: QueryParams = {}): Promise<void> {
      await client.command({ query: sql, query_params: params });
    },
    async insertRows(layout: RowLayout, rows: Buffer, settings: Record<string, string | number> = {}): Promise<void> {
      // exec sends our RowBinary rows as the body; the server reads them with the named columns' types.
      const result = await client.exec({
        query: `INSERT INTO ${checkIdentifier(layout.table)} (${layout.columns.map(checkIdentifier).join(', ')}) FORMAT RowBinary`,
        values: Readable.from([rows], { objectMode: false }),
        clickhouse_settings: { ...INSERT_SETTINGS, ...settings },
      });
      result.stream.resume();
    },
    async ping(): Promise<void> {
      const result = await client.ping();
      if (!result.success) throw result.error;
    },
    async close(): Promise<void> {
      await client.close();
    },
  });
}
