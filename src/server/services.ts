/**
 * The composition root: opens every store the configuration names, migrates the two databases,
 * and builds the shared machinery (writer, admission gate, caches). Closing reverses it.
 */
import { pino } from 'pino';
import { shownValue, type Config } from '../config.js';
import { AdmissionGate } from '../http/admission.js';
import { ProjectCache } from '../application/project-cache.js';
import { GroupCommitWriter } from '../store/telemetry/writer.js';
import { IngestUsageRecorder } from '../application/ingest-usage.js';
import { createMailer } from '../application/mail.js';
import { ServiceMetrics } from '../application/metrics.js';
import { SymbolTables } from '../application/symbolication/tables.js';
import { TableBuilder } from '../application/symbolication/table-builder.js';
import { SessionTokens, loadSessionSecret } from '../application/auth/session-tokens.js';
import { UnconfiguredPayments } from '../application/billing/payments.js';
import { TokenUseRecorder } from '../application/tokens/token-use.js';
import { createCoordStore } from '../store/coord/index.js';
import { SourceMapTables } from '../application/symbolication/sourcemaps.js';
import { openMetaDb } from '../store/meta/index.js';
import { lockDataFolder } from './data-folder-lock.js';
import { StartError } from './start-error.js';
import { createObjectStore, type ObjectStore } from '../store/objects/index.js';
import { openTelemetryEngine } from '../store/telemetry/index.js';
import { migrateTelemetry } from '../store/telemetry/migrate.js';
import {
  metadataMoveMark,
  objectsCheckedOnFirstAnswer,
  objectsMoveMark,
  telemetryMoveMark,
  type MoveMark,
  type MoveMarkStore,
} from '../store/move-mark.js';
import { setQueryLimits } from '../store/telemetry/queries/run.js';
import { RollupMarks } from '../application/rollup-marks.js';
import { RollupJob } from '../application/jobs/rollup-job.js';
import { ISSUE_STATUS_CHANGED_CHANNEL, IssueDetector } from '../application/issue-detector.js';
import { AlertJob } from '../application/alerting/job.js';
import { SecretBox } from '../application/alerting/secrets.js';
import { PURGE_INTERVAL_MS, ProjectPurgeJob } from '../application/jobs/project-purge-job.js';
import { RETENTION_INTERVAL_MS, RetentionJob } from '../application/jobs/retention-job.js';
import { TableRetention } from '../application/table-retention.js';
import { OBJECT_EXPIRY_INTERVAL_MS, ObjectExpiryJob } from '../application/jobs/object-expiry-job.js';
import { QUOTA_WARNING_INTERVAL_MS, QuotaWarningJob } from '../application/jobs/quota-warning-job.js';
import { findIngestProject } from '../store/meta/repositories/projects.js';
import { syncPlans } from '../store/meta/repositories/billing.js';
import { recordPersonalAccessTokenUse } from '../store/meta/repositories/personal-access-tokens.js';
import { recordUserSessionUse } from '../store/meta/repositories/user-sessions.js';
import { SESSION_EXPIRY_INTERVAL_MS, SessionExpiryJob } from '../application/auth/user-sessions.js';
import type { Logger } from '../application/log.js';
import { PROJECT_CHANGED_CHANNEL, type Services } from '../application/services.js';

export interface OpenOptions {
  now?: () => number;
  /** The process logger (tests capture its lines); by default pino at LOG_LEVEL on stdout. */
  log?: Logger;
}

/** How often recorded uses of personal access tokens and sessions are written. */
const TOKEN_USE_FLUSH_MS = 60_000;

export async function openServices(config: Config, options: OpenOptions = {}): Promise<Services> {
  const now = options.now ?? Date.now;
  const log = options.log ?? pino({ level: config.logLevel });
  // Background work has no request: each failure is one structured line naming its job.
  const failed = (job: string, message: string) => (error: unknown) => log.error({ job, err: error }, message);
  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    // Embedded engines allow one process per data folder: claim it before either opens.
    if (config.meta.kind === 'pglite' || config.telemetry.kind === 'chdb') opened.push(lockDataFolder(config.dataDir));
    // The metadata store first: on an empty folder PGlite initialises in a child process, which
    // should not overlap with chDB's memory in this one (the telemetry engine loads chDB on open).
    // openMetaDb applies the metadata migrations before it returns.
    const onPostgres = serverFailure(
      config.meta.kind === 'postgres' ? shownValue('DATABASE_URL', config.meta.url) : null,
      'PostgreSQL',
    );
    const meta = await openMetaDb(config.meta).catch(onPostgres);
    opened.push(meta);
    if (config.meta.kind === 'postgres')
      await refuseUnfinishedMove(metadataMoveMark(meta), 'the PostgreSQL database of DATABASE_URL').catch(onPostgres);
    await meta.transaction((tx) => syncPlans(tx, config.billing.catalogue));

    const onClickHouse = serverFailure(
      config.telemetry.kind === 'clickhouse-http' ? shownValue('CLICKHOUSE_URL', config.telemetry.url) : null,
      'ClickHouse',
    );
    const telemetry = await openTelemetryEngine(config.telemetry, {
      onStagedError: (error, { table, batch, setAside }) =>
        setAside === undefined
          ? log.warn({ err: error, table, batch }, 'chdb staged insert failed; the batch is kept and tried again')
          : log.error({ err: error, table, batch, setAside }, 'chdb staged insert failed; the file is set aside'),
    }).catch(onClickHouse);
    opened.push(telemetry);
    await migrateTelemetry(telemetry).catch(onClickHouse);
    if (config.telemetry.kind === 'clickhouse-http')
      await refuseUnfinishedMove(
        telemetryMoveMark(telemetry),
        `the ClickHouse database ${config.telemetry.database}`,
      ).catch(onClickHouse);
    // Reads are bounded process-wide: one service per process, limits from configuration.
    setQueryLimits(config.queryLimits);

    const bucket = await createObjectStore(
      config.objects.kind === 'fs'
        ? { engine: 'fs', root: config.objects.root }
        : { engine: 's3', ...s3Options(config.objects) },
    );
    opened.push(bucket);
    const objects =
      config.objects.kind === 's3'
        ? await checkBucketMark(bucket, `the S3 bucket ${config.objects.bucket}`, log)
        : bucket;
    const onHandlerError = (error: unknown, channel: string) =>
      log.error({ err: error, channel }, 'a coordination-store subscriber failed');
    const coord = createCoordStore(
      config.coord.kind === 'redis'
        ? { engine: 'redis', url: config.coord.url, keyPrefix: config.coord.keyPrefix, onHandlerError }
        : // Rate limits follow the service clock like every other expiry (Redis keeps its own time).
          { engine: 'memory', onHandlerError, now },
    );
    opened.push(coord);

    const metrics = new ServiceMetrics();
    const writer = new GroupCommitWriter(telemetry, {
      maxRows: config.writer.maxRows,
      flushMs: config.writer.flushMs,
      onFlush: metrics.recordFlush,
    });
    const usage = new IngestUsageRecorder(meta);
    const projects = new ProjectCache((token) => findIngestProject(meta, token), {
      ttlMs: config.projectCacheTtlMs,
      now,
    });
    const unsubscribe = await coord.subscribe(PROJECT_CHANGED_CHANNEL, (projectId) =>
      projects.invalidateProject(projectId),
    );
    const issues = new IssueDetector(meta, {
      cacheTtlMs: 60_000,
      maxHashesPerProject: 50_000,
      now,
      onError: failed('issues', 'detecting new and regressed issues failed'),
    });
    const unsubscribeIssues = await coord.subscribe(ISSUE_STATUS_CHANGED_CHANNEL, (projectId) =>
      issues.forgetProject(projectId),
    );
    const sessionSecret = loadSessionSecret(config.auth.sessionSecret, config.dataDir);
    const sessions = new SessionTokens(sessionSecret, config.publicUrl, config.auth.sessionTtlHours * 3600, now);
    const secrets = new SecretBox(sessionSecret);
    const warnTokenUse = failed('token-use', 'recording personal access token use failed');
    const tokenUse = new TokenUseRecorder((uses) => recordPersonalAccessTokenUse(meta, uses), {
      flushMs: TOKEN_USE_FLUSH_MS,
      onError: warnTokenUse,
    });
    const warnSessionUse = failed('session-use', 'recording session use failed');
    const sessionUse = new TokenUseRecorder((uses) => recordUserSessionUse(meta, uses), {
      flushMs: TOKEN_USE_FLUSH_MS,
      onError: warnSessionUse,
    });
    const sessionExpiry = new SessionExpiryJob(meta, now, {
      intervalMs: SESSION_EXPIRY_INTERVAL_MS,
      onError: failed('session-expiry', 'deleting expired sessions failed'),
    });
    sessionExpiry.start();
    const mailer = createMailer(config.mail);
    const rollups = new RollupJob(telemetry, {
      intervalMs: config.rollupIntervalMs,
      onError: failed('rollup', 'rolling up endpoint hours failed'),
    });
    rollups.start();
    const purges = new ProjectPurgeJob(
      { meta, telemetry, objects },
      // A minute beyond the longest an ingest request admitted before the delete can take to arrive.
      { settleMs: config.projectCacheTtlMs + config.bodyTimeoutMs + 60_000, now },
      { intervalMs: PURGE_INTERVAL_MS, onError: failed('project-purge', "purging a deleted project's data failed") },
    );
    purges.start();
    const objectExpiry = new ObjectExpiryJob(objects, now, {
      intervalMs: OBJECT_EXPIRY_INTERVAL_MS,
      onError: failed('object-expiry', 'deleting expired objects failed'),
    });
    objectExpiry.start();
    const retention = new RetentionJob(
      { meta, telemetry, objects, defaultPlan: config.billing.catalogue.defaultPlan, now },
      {
        intervalMs: RETENTION_INTERVAL_MS,
        onError: failed('retention', "deleting data past a plan's retention failed"),
      },
    );
    retention.start();
    const quotaWarnings =
      mailer &&
      new QuotaWarningJob(
        {
          meta,
          telemetry,
          mailer,
          defaultPlan: config.billing.catalogue.defaultPlan,
          publicUrl: config.publicUrl,
          now,
          onMailError: (organizationId, description) =>
            log.warn({ job: 'quota-warnings', organizationId, reason: description }, 'mailing a quota warning failed'),
        },
        {
          intervalMs: QUOTA_WARNING_INTERVAL_MS,
          onError: failed('quota-warnings', 'checking ingest quotas for warnings failed'),
        },
      );
    quotaWarnings?.start();
    const alerts = new AlertJob(
      {
        meta,
        telemetry,
        mailer,
        secrets,
        now,
        publicUrl: config.publicUrl,
        allowPrivateTargets: config.alerts.allowPrivateTargets,
        beforeEvaluation: () => issues.idle(),
        onError: failed('alerting', 'alerting failed'),
      },
      config.alerts.intervalMs,
    );
    alerts.start();

    return {
      config,
      log,
      telemetry,
      meta,
      objects,
      coord,
      writer,
      usage,
      admission: new AdmissionGate(config.ingest),
      projects,
      sessions,
      metrics,
      symbolTables: new SymbolTables(meta, objects, new TableBuilder(), {
        maxBytes: config.symbolTableCacheBytes,
        now,
        onError: (what, error) =>
          log.error({ job: 'symbolication', err: error, subject: what }, 'loading symbols failed'),
      }),
      sourceMaps: new SourceMapTables(meta, objects, {
        maxBytes: config.sourceMapCacheBytes,
        now,
        onError: (what, error) =>
          log.error({ job: 'source-maps', err: error, subject: what }, 'loading a source map failed'),
      }),
      // Stripe's SDK (about 25 MB resident) is loaded only where billing is configured.
      payments: config.billing.stripe
        ? new (await import('../application/billing/stripe.js')).StripePayments(
            config.billing.stripe,
            config.billing.catalogue,
          )
        : new UnconfiguredPayments(),
      tokenUse,
      sessionUse,
      sessionExpiry,
      mailer,
      issues,
      secrets,
      alerts,
      rollupMarks: new RollupMarks(writer, now),
      rollups,
      purges,
      objectExpiry,
      retention,
      tableRetention: new TableRetention(telemetry, now),
      quotaWarnings,
      now,
      async close() {
        await alerts.close();
        await rollups.close();
        await purges.close();
        await objectExpiry.close();
        await retention.close();
        await quotaWarnings?.close();
        await sessionExpiry.close();
        await writer.close();
        await usage.idle();
        await issues.idle();
        await tokenUse.close().catch(warnTokenUse);
        await sessionUse.close().catch(warnSessionUse);
        await mailer?.close();
        await unsubscribe();
        await unsubscribeIssues();
        for (const store of opened.reverse()) await store.close();
      },
    };
  } catch (error) {
    for (const store of opened.reverse())
      await store
        .close()
        .catch((closeError: unknown) => log.warn({ err: closeError }, 'closing a store after a failed start failed'));
    throw error;
  }
}

/**
 * A server engine that cannot be reached or migrated stops the start with one line naming its
 * variable (credentials hidden), exit 1 as before, so a supervisor still restarts it (the server
 * may come up); before, a stack trace. A migration refusal is its own line on every engine; other
 * errors of the embedded engines are left as they are.
 */
function serverFailure(variable: string | null, server: string) {
  return (error: unknown): never => {
    if (error instanceof StartError) throw error;
    // A migration refused (edited, unknown or missing) says what to do itself, on either engine.
    if ((error as Error).name === 'MigrationError') throw new StartError((error as Error).message, 1);
    if (variable === null) throw error;
    throw new StartError(`cannot use ${server} at ${variable}: ${(error as Error).message}`, 1);
  };
}

/**
 * A store a `sightline move` marked and never finished holds part of the data: the start stops
 * (exit 65, EX_DATAERR, as the move's own refusal of a filled target) with the command that
 * redoes the move, instead of serving half the data without a word.
 */
async function refuseUnfinishedMove(mark: MoveMarkStore, target: string): Promise<void> {
  const unfinished = await mark.read();
  if (unfinished !== null) throw new StartError(unfinishedMove(target, unfinished), 65);
}

function unfinishedMove(target: string, mark: MoveMark): string {
  const dataDir = mark.dataDir === null ? '<the data folder moved>' : shellWord(mark.dataDir);
  return `a sightline move into ${target} did not finish, so it holds only part of the data: run the move again with this start's server variables (DATA_DIR=${dataDir} npx sightline move), then start (docs/OPERATIONS.md §7)`;
}

/**
 * The bucket's move mark at start: marked, the start stops as on a marked database. A bucket that
 * cannot be read (endpoint down, refused credentials) does not stop it: ingest needs no bucket, so
 * a passing S3 outage should not become an outage of ingest. The start goes on with one warning,
 * /ready reports the bucket as for any outage, and the mark is read on the bucket's first use that
 * reaches it (a readiness probe, an upload). Marked then, the process keeps serving what needs no
 * bucket and refuses every use of it (one error line; /ready 503 naming the move), so nothing is
 * written that the move's redo would remove nor read from half a copy; exiting instead would stop
 * ingest too, and the next start refuses anyway.
 */
async function checkBucketMark(objects: ObjectStore, target: string, log: Logger): Promise<ObjectStore> {
  let mark: MoveMark | null;
  try {
    mark = await objectsMoveMark(objects).read();
  } catch (error) {
    log.warn(
      `${target} could not be read (${(error as Error).message}), so whether a sightline move into it did not finish was not checked: starting without it; the check is made when it answers`,
    );
    return objectsCheckedOnFirstAnswer(objects, (found) => {
      if (found === null) {
        log.info(`${target} answers and holds no unfinished sightline move: objects are stored again`);
        return null;
      }
      const refusal = unfinishedMove(target, found);
      log.error(`${refusal}; until then this process stores and reads no objects`);
      return new Error(refusal);
    });
  }
  if (mark !== null) throw new StartError(unfinishedMove(target, mark), 65);
  return objects;
}

/** A word for a shell command line: quoted when it holds anything but plain path characters. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

export function s3Options(objects: Extract<Config['objects'], { kind: 's3' }>) {
  const { kind: _kind, ...rest } = objects;
  return rest;
}
