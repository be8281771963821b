/**
 * What every route, surface and use case is handed: the opened stores and the shared machinery of
 * one process. The composition root (server/services.ts, openServices) builds it; the layers
 * above the application (ingest/, api/, server/) depend on this interface, never on how it is built.
 */
import type { Config } from '../config.js';
import type { AdmissionGate } from '../http/admission.js';
import type { CoordStore } from '../store/coord/index.js';
import type { MetaDb } from '../store/meta/types.js';
import type { ObjectStore } from '../store/objects/index.js';
import type { TelemetryEngine } from '../store/telemetry/index.js';
import type { GroupCommitWriter } from '../store/telemetry/writer.js';
import type { IngestUsageRecorder } from './ingest-usage.js';
import type { AlertJob } from './alerting/job.js';
import type { SecretBox } from './alerting/secrets.js';
import type { SessionTokens } from './auth/session-tokens.js';
import type { SessionExpiryJob } from './auth/user-sessions.js';
import type { PaymentProvider } from './billing/payments.js';
import type { IssueDetector } from './issue-detector.js';
import type { Logger } from './log.js';
import type { SourceMapTables } from './symbolication/sourcemaps.js';
import type { ObjectExpiryJob } from './jobs/object-expiry-job.js';
import type { RetentionJob } from './jobs/retention-job.js';
import type { QuotaWarningJob } from './jobs/quota-warning-job.js';
import type { ProjectPurgeJob } from './jobs/project-purge-job.js';
import type { RollupJob } from './jobs/rollup-job.js';
import type { Mailer } from './mail.js';
import type { ServiceMetrics } from './metrics.js';
import type { ProjectCache } from './project-cache.js';
import type { RollupMarks } from './rollup-marks.js';
import type { SymbolTables } from './symbolication/tables.js';
import type { TableRetention } from './table-retention.js';
import type { TokenUseRecorder } from './tokens/token-use.js';

export interface Services {
  config: Config;
  /**
   * The process logger, for work no request owns (jobs, background failures). A request's work logs
   * through `request.log`, a child of this one carrying the request's `reqId`.
   */
  log: Logger;
  telemetry: TelemetryEngine;
  meta: MetaDb;
  objects: ObjectStore;
  coord: CoordStore;
  writer: GroupCommitWriter;
  /** Ingest usage into the metadata store, once a request's rows are stored. */
  usage: IngestUsageRecorder;
  admission: AdmissionGate;
  projects: ProjectCache;
  sessions: SessionTokens;
  metrics: ServiceMetrics;
  symbolTables: SymbolTables;
  /** Decoded JavaScript source maps (bounded LRU). */
  sourceMaps: SourceMapTables;
  /** Stripe when configured, otherwise a provider answering 422 "billing is not configured". */
  payments: PaymentProvider;
  /** Coalesced last-use times of personal access tokens. */
  tokenUse: TokenUseRecorder;
  /** Coalesced last-use times of dashboard sessions and CLI password logins (user_sessions). */
  sessionUse: TokenUseRecorder;
  /** Deletes the records of expired sessions. */
  sessionExpiry: SessionExpiryJob;
  /** Outgoing mail (SMTP_URL); null when no mail server is configured. */
  mailer: Mailer | null;
  /** New-issue and regression detection after ingest writes (background, one statement per batch). */
  issues: IssueDetector;
  /** Channel secrets (webhook signing secrets, Slack URLs), sealed under the session secret. */
  secrets: SecretBox;
  /** Evaluates alert rules and sends notifications (runOnce() evaluates and delivers now). */
  alerts: AlertJob;
  /** Marks the hours ingest wrote to, for the hourly rollup. */
  rollupMarks: RollupMarks;
  /** Keeps the hourly rollup current (started by openServices unless ROLLUP_INTERVAL_SECONDS=0). */
  rollups: RollupJob;
  /** Removes deleted projects' telemetry and objects, a few minutes after the delete. */
  purges: ProjectPurgeJob;
  /** Deletes stored objects whose rows have expired. */
  objectExpiry: ObjectExpiryJob;
  /** Deletes each project's telemetry and objects older than its plan keeps. */
  retention: RetentionJob;
  /** The telemetry tables' TTLs as the engine has them (re-read every few minutes). */
  tableRetention: TableRetention;
  /** Mails admins at 80% and 100% of the monthly ingest quota; null without a mailer (SMTP_URL). */
  quotaWarnings: QuotaWarningJob | null;
  /** The service clock (epoch ms): token and code expiry read it, tests move it. */
  now: () => number;
  close(): Promise<void>;
}

/** Channel on which a process announces a project whose tokens changed. */
export const PROJECT_CHANGED_CHANNEL = 'project-changed';
