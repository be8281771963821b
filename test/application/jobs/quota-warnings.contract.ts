/**
 * The ingest-quota warnings (application/jobs/quota-warning-job.ts) against a real service, a
 * real SMTP server on loopback and the metadata store the running file names (PGlite, or a
 * scratch database on the suites' PostgreSQL): admins are mailed at 80% and at 100% of the
 * month's quota, once per threshold and month even with two jobs running at once, and members
 * who are not admins are not mailed. A warning whose mail the server refused is sent at the next
 * run, once, and only to the admins it did not reach, a bounded number of times; a claim whose
 * process died before mailing is taken by a run after its lease and by none within it; an
 * organization whose month has only an earlier version's usage rows (telemetry store) is warned too.
 */
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QUOTA_WARNING_INTERVAL_MS,
  QUOTA_WARNING_LEASE_MS,
  QUOTA_WARNING_MAX_ATTEMPTS,
  QuotaWarningJob,
} from '../../../src/application/jobs/quota-warning-job.js';
import { addIngestUsage } from '../../../src/store/meta/repositories/ingest-usage.js';
import { claimQuotaWarnings } from '../../../src/store/meta/repositories/quota-warnings.js';
import { insertMembership } from '../../../src/store/meta/repositories/organizations.js';
import { insertUser } from '../../../src/store/meta/repositories/users.js';
import { SMALL_CATALOGUE, writePlansFile } from '../../support/access.js';
import { startMailServer, type TestMailServer } from '../../support/mail-server.js';
import { postgresQuery, postgresUrl } from '../../support/postgres.js';
import { postGzippedReport, registerUser, startTestService, type TestService } from '../../support/service.js';

const GB = 1_000_000_000; // SMALL_CATALOGUE's free plan ingests 1 GB a month

export function quotaWarningsContract(metaStore: 'pglite' | { skipped: string } | 'postgres'): void {
  const skipped = typeof metaStore === 'object' ? metaStore.skipped : null;
  describe.skipIf(skipped !== null)(
    `ingest quota warnings (${typeof metaStore === 'string' ? metaStore : 'postgres'})`,
    () => {
      const database = `sightline_quota_${randomBytes(6).toString('hex')}`;
      let mail: TestMailServer;
      let service: TestService;
      let job: QuotaWarningJob;
      let owner: Awaited<ReturnType<typeof registerUser>>;
      const month = () => new Date(service.services.now()).toISOString().slice(0, 7);
      // A second process's job over the same stores (with its own clock, to run later than now).
      const secondProcessJob = (now = service.services.now, maxAttempts?: number) =>
        new QuotaWarningJob(
          {
            meta: service.services.meta,
            telemetry: service.services.telemetry,
            mailer: service.services.mailer!,
            defaultPlan: SMALL_CATALOGUE.defaultPlan,
            publicUrl: 'https://sightline.example',
            now,
            onMailError: () => undefined,
            maxAttempts,
          },
          { intervalMs: 0, onError: () => undefined },
        );
      // What a process that claimed the organization's 80% warning at `claimedAt` and died left behind.
      const claimAndDie = (organizationId: string, claimedAt: number) =>
        claimQuotaWarnings(
          service.services.meta,
          organizationId,
          `${month()}-01`,
          [80],
          new Date(claimedAt),
          new Date(claimedAt - QUOTA_WARNING_LEASE_MS),
        );
      const addAdmin = async (organizationId: string, name: string) => {
        const user = await insertUser(service.services.meta, {
          email: `${name}-${randomBytes(4).toString('hex')}@example.com`,
          name,
          passwordHash: null,
        });
        await insertMembership(service.services.meta, organizationId, user.id, 'admin');
        return user;
      };
      // Two processes' runs at once: one mails `email` the 80% warning; a later run sends nothing more.
      const expectEightyPercentMailedOnce = async (email: string, messagesThen: number) => {
        const mailed = await Promise.all([job.runOnce(), secondProcessJob().runOnce()]);
        expect(mailed.sort()).toEqual([0, 1]);
        const warning = await mail.next();
        expect(warning.to).toMatchObject({ text: email });
        expect(warning.subject).toMatch(/has used 80% of its monthly ingest quota/);
        expect(await job.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(messagesThen);
      };
      const recipient = (message: { to?: unknown }) => (message.to as { text: string }).text;
      const use = (organizationId: string, projectId: string, bytes: number) =>
        addIngestUsage(service.services.meta, [
          { projectId, organizationId, month: `${month()}-01`, bytes, requests: 1, skippedRecords: 0 },
        ]);

      beforeAll(async () => {
        mail = await startMailServer();
        const env: Record<string, string> = {
          PLANS_FILE: writePlansFile(SMALL_CATALOGUE),
          SMTP_URL: mail.url,
          PUBLIC_URL: 'https://sightline.example',
        };
        if (metaStore === 'postgres') {
          await postgresQuery(`CREATE DATABASE ${database}`);
          env.DATABASE_URL = postgresUrl(database);
        }
        service = await startTestService(env);
        owner = await registerUser(service.app);
        // A read-only member, who is told nothing about billing.
        const reader = await insertUser(service.services.meta, {
          email: `reader-${database}@example.com`,
          name: 'Reader',
          passwordHash: null,
        });
        await insertMembership(service.services.meta, owner.organization.id, reader.id, 'read-only');
        job = service.services.quotaWarnings!;
        expect(job).toBeInstanceOf(QuotaWarningJob);
        // Join the run the start began, so each runOnce below starts on the data as set up.
        await job.runOnce();
      });
      afterAll(async () => {
        await service?.close();
        await mail?.close();
        if (metaStore === 'postgres') await postgresQuery(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
      });

      it('says nothing below 80% of the quota', async () => {
        await use(owner.organization.id, owner.project.id, 0.5 * GB);
        expect(await job.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(0);
      });

      it('mails the admins once at 80%, with the usage, what happens at 100% and where to see it', async () => {
        await use(owner.organization.id, owner.project.id, 0.31 * GB);
        expect(await job.runOnce()).toBe(1);
        const warning = await mail.next();
        expect(warning.to).toMatchObject({ text: owner.user.email });
        expect(warning.subject).toMatch(/has used 80% of its monthly ingest quota/);
        expect(warning.text).toContain(`0.81 GB of 1.00 GB of ingest in ${month()}`);
        expect(warning.text).toContain('When it reaches 100%');
        // The organization's own page, whichever project the admin last looked at.
        expect(warning.text).toContain(
          `https://sightline.example/settings/organization?organization=${owner.organization.id}`,
        );
        // Later runs, and a second process's job at the same moment, do not repeat it.
        expect(await job.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(1);
      });

      it('mails once more when ingest pauses at 100%, as the ingest routes start answering 503', async () => {
        await use(owner.organization.id, owner.project.id, 0.2 * GB);
        const mailed = await Promise.all([job.runOnce(), secondProcessJob().runOnce()]);
        expect(mailed.sort()).toEqual([0, 1]);
        const paused = await mail.next();
        expect(paused.subject).toMatch(/^Ingest paused for .+: monthly quota used$/);
        expect(paused.text).toContain('refusing new telemetry');
        expect(mail.messages).toHaveLength(2);
        const report = zlib.gzipSync(JSON.stringify({ appVersion: '', serverName: '', collectionFrames: [] }));
        expect((await postGzippedReport(service.app, owner.project.token, report)).statusCode).toBe(503);
      });

      it('warns an organization that crossed both thresholds at once with the pause only', async () => {
        const second = await registerUser(service.app);
        await use(second.organization.id, second.project.id, 1.2 * GB);
        expect(await job.runOnce()).toBe(1);
        const paused = await mail.next();
        expect(paused.to).toMatchObject({ text: second.user.email });
        expect(paused.subject).toMatch(/^Ingest paused/);
        expect(await job.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(3);
      });

      it('sends a warning the mail server refused at the next run, and once with two jobs running', async () => {
        const third = await registerUser(service.app);
        await use(third.organization.id, third.project.id, 0.9 * GB);
        mail.refuseNext();
        expect(await job.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(3);
        await expectEightyPercentMailedOnce(third.user.email, 4);
      });

      it('mails the 80% warning of a process that died after claiming it, at the first run after its lease', async () => {
        const crashed = await registerUser(service.app);
        await use(crashed.organization.id, crashed.project.id, 0.85 * GB);
        expect(
          await claimAndDie(crashed.organization.id, service.services.now() - QUOTA_WARNING_LEASE_MS - 60_000),
        ).toEqual([80]);
        await expectEightyPercentMailedOnce(crashed.user.email, 5);
      });

      it('leaves a claim within its lease to the process holding it, and takes it once the lease is over', async () => {
        const holding = await registerUser(service.app);
        await use(holding.organization.id, holding.project.id, 0.85 * GB);
        const claimedAt = service.services.now();
        expect(await claimAndDie(holding.organization.id, claimedAt)).toEqual([80]);
        expect(await Promise.all([job.runOnce(), secondProcessJob().runOnce()])).toEqual([0, 0]);
        expect(mail.messages).toHaveLength(5);
        const afterLease = secondProcessJob(() => claimedAt + QUOTA_WARNING_LEASE_MS + 60_000);
        expect(await afterLease.runOnce()).toBe(1);
        const warning = await mail.next();
        expect(warning.to).toMatchObject({ text: holding.user.email });
        expect(await afterLease.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(6);
      });

      it('mails again only the admin the server refused, not one who joined since, and not the admin who got it', async () => {
        const shared = await registerUser(service.app);
        const second = await addAdmin(shared.organization.id, 'second-admin');
        await use(shared.organization.id, shared.project.id, 0.9 * GB);
        mail.refuseNext();
        expect(await job.runOnce()).toBe(1);
        const reached = recipient(await mail.next());
        const refused = [shared.user.email, second.email].find((email) => email !== reached)!;
        expect([shared.user.email, second.email]).toContain(reached);
        expect(mail.messages).toHaveLength(7);
        const joined = await addAdmin(shared.organization.id, 'later-admin');
        await expectEightyPercentMailedOnce(refused, 8);
        expect(mail.messages.map(recipient)).not.toContain(joined.email);
      });

      it('stops mailing an admin the server refused as many times as the job allows (a day of runs by default)', async () => {
        expect(QUOTA_WARNING_MAX_ATTEMPTS * QUOTA_WARNING_INTERVAL_MS).toBe(24 * 60 * 60 * 1000);
        const refusedOrganization = await registerUser(service.app);
        await use(refusedOrganization.organization.id, refusedOrganization.project.id, 0.9 * GB);
        const fewAttempts = secondProcessJob(service.services.now, 3);
        for (let attempt = 1; attempt <= 3; attempt++) {
          mail.refuseNext();
          expect(await fewAttempts.runOnce()).toBe(0);
        }
        expect(await fewAttempts.runOnce()).toBe(0);
        expect(mail.messages).toHaveLength(8);
      });

      it('warns an organization whose month has only usage rows an earlier version wrote to the telemetry store', async () => {
        const fourth = await registerUser(service.app);
        await service.services.telemetry.command(
          `INSERT INTO ingest_usage (project_id, organization_id, month, bytes, requests, skipped_records)
           VALUES ({project:UUID}, {organization:UUID}, {month:Date}, {bytes:UInt64}, 1, 0)`,
          { project: fourth.project.id, organization: fourth.organization.id, month: `${month()}-01`, bytes: 1.1 * GB },
        );
        expect(await job.runOnce()).toBe(1);
        const paused = await mail.next();
        expect(paused.to).toMatchObject({ text: fourth.user.email });
        expect(paused.subject).toMatch(/^Ingest paused/);
        expect(mail.messages).toHaveLength(9);
      });
    },
  );
}
