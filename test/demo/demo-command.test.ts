/**
 * `sightline demo` as an operator runs it (bin/sightline.mjs, the compiled dist/) against a real
 * service listening on a port: `--once` registers the demo account, creates the "Demo" project,
 * sends one batch through the real report and OTLP routes, and the read API then shows endpoints,
 * tasks, grouped exceptions, logs tied to traces, metrics and AI calls; a second run signs in and
 * reuses the project. Then what goes wrong: --help, bad options (64), no service at the URL (69),
 * a refused token (1), and Ctrl-C ending the loop (0).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USAGE } from '../../src/demo/command.js';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/demo/run-demo.js';
import { demoEnvironment, runDemoCommand, SIGHTLINE_BIN } from '../support/demo-command.js';
import { freeLoopbackPort } from '../support/loopback.js';
import { listeningTestService, type ListeningTestService } from '../support/service.js';

const demo = runDemoCommand;

describe('sightline demo', () => {
  let service: ListeningTestService;

  beforeAll(async () => {
    service = await listeningTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const once = async () => {
    const result = await demo(['--url', service.url, '--once', '--seed', '15']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.stdout;
  };

  it('fills a Demo project through the real ingest routes, and the read API shows it', async () => {
    const first = await once();
    expect(first).toContain(`registered ${DEMO_EMAIL} (password: ${DEMO_PASSWORD})`);
    expect(first).toMatch(/created project Demo \(/);
    expect(first).toContain(`sending to ${service.url} one batch`);
    expect(first).toMatch(
      /sent \d+ calls \(\d+ failed\), \d+ task runs, \d+ exceptions, \d+ logs, \d+ metrics, \d+ AI calls, 1 browser sessions/,
    );
    await service.services.writer.drain();

    const login = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
    const projects = (await service.app.inject({ method: 'GET', url: '/api/projects', headers })).json() as {
      projects: Array<{ id: string; name: string }>;
    };
    const project = projects.projects.find((p) => p.name === 'Demo')!;
    expect(project).toBeDefined();
    const range = {
      fromDate: new Date(Date.now() - 3_600_000).toISOString(),
      toDate: new Date(Date.now() + 60_000).toISOString(),
    };
    const read = async (url: string, body: Record<string, unknown> = {}) => {
      const answer = await service.app.inject({
        method: 'POST',
        url: `${url}?projectId=${project.id}`,
        headers,
        payload: { ...range, pagination: { page: 1, pageSize: 200 }, ...body },
      });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      return answer.json() as { items: Array<Record<string, unknown>> };
    };
    const names = (items: Array<Record<string, unknown>>) => items.map((item) => item.name);
    const endpoints = (await read('/api/endpoints')).items;
    expect(names(endpoints)).toEqual(expect.arrayContaining(['GET /api/products', 'GET /api/products/:id']));
    // A spread of latencies, and failures somewhere.
    expect(endpoints.some((e) => (e.p95Ms as number) > (e.p50Ms as number))).toBe(true);
    expect(endpoints.some((e) => (e.serverErrors as number) > 0)).toBe(true);
    expect(names((await read('/api/tasks')).items)).toContain('send-order-confirmation');

    // Exceptions group, and each links to the call it happened in, whose logs carry its trace id.
    const issues = (await read('/api/exception-stack-traces')).items;
    expect(issues.length).toBeGreaterThanOrEqual(1);
    const linked = issues.map((issue) => issue.linked as { id: string } | null).find((link) => link)!;
    expect(linked).toBeDefined();
    const logs = (await read('/api/logs')).items;
    expect(logs.length).toBeGreaterThanOrEqual(20);
    expect(
      logs.filter((entry) => entry.traceId === linked.id.replaceAll('-', '')).map((entry) => entry.severityText),
    ).toEqual(expect.arrayContaining(['INFO', 'ERROR']));

    const discovered = await service.app.inject({
      method: 'GET',
      url: `/api/metrics/discover?projectId=${project.id}`,
      headers,
    });
    const metricNames = (discovered.json() as { metrics: Array<{ name: string }> }).metrics.map((m) => m.name);
    expect(metricNames).toEqual(
      expect.arrayContaining([
        'http.server.active_requests',
        'http.server.requests',
        'db.client.connections.usage',
        'payment.amount.avg',
        'checkout.duration.p95',
        'queue.depth',
        'payments.pending',
      ]),
    );
    expect(metricNames.some((name) => name.startsWith('http.server.request.duration'))).toBe(true);

    const ai = (await read('/api/ai-traces')).items;
    expect(ai.length).toBeGreaterThanOrEqual(1);
    expect(ai[0]).toMatchObject({ operation: 'chat', finishReason: 'stop' });
    expect(ai[0]!.totalCost as number).toBeGreaterThan(0);

    // The shopper's session, its recording segment, and the exception raised during it.
    const sessions = (await read('/api/sessions')).items;
    expect(sessions).toHaveLength(1);
    const sessionId = sessions[0]!.id as string;
    const recording = await service.app.inject({
      method: 'GET',
      url: `/api/sessions/${sessionId}/recording?projectId=${project.id}`,
      headers,
    });
    expect(recording.statusCode, recording.body).toBe(200);
    const segments = (recording.json() as { segments: Array<{ events: Array<{ type: number }>; actions: unknown[] }> })
      .segments;
    expect(segments[0]!.events.map((e) => e.type).slice(0, 2)).toEqual([4, 2]);
    expect(segments[0]!.actions).toHaveLength(3);
    expect(issues.some((issue) => issue.sessionsAffected === 1)).toBe(true);

    const second = await once();
    expect(second).toContain(`signed in as ${DEMO_EMAIL}`);
    expect(second).toContain(`using project Demo (${project.id})`);
  });

  it('--help prints the usage: what it does, each option, that Ctrl-C stops it', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await demo([flag]);
      expect(help).toEqual({ code: 0, stdout: DEMO_USAGE, stderr: '' });
    }
    expect(DEMO_USAGE).toMatch(/^usage: sightline demo \[options\]/);
    for (const option of ['--url', '--token', '--email', '--password', '--once', '--interval', '--seed'])
      expect(DEMO_USAGE).toMatch(new RegExp(`^  ${option} `, 'm'));
    expect(DEMO_USAGE).toContain('Ctrl-C');
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['--interval', '0'], '--interval is a number of seconds from 1 to 86400 (got "0")'],
    [['--interval', 'abc'], '--interval is a number of seconds from 1 to 86400 (got "abc")'],
    [['--seed', 'x'], '--seed is a whole number (got "x")'],
    [['--url', 'not-a-url'], '--url "not-a-url" is not an http:// or https:// URL'],
    [['--url'], '--url needs a value'],
    [['--once=yes'], '--once takes no value'],
    [['extra'], 'unexpected argument "extra" (options start with --)'],
  ])('%j is a usage error (64): one line naming it, then the usage', async (args, problem) => {
    expect(await demo(args)).toEqual({ code: 64, stdout: '', stderr: `sightline demo: ${problem}\n\n${DEMO_USAGE}` });
  });

  it('a SIGHTLINE_URL that is not a URL is bad configuration (78, as `serve`): one line naming it, no usage', async () => {
    for (const value of ['not-a-url', 'ftp://example.com']) {
      expect(await demo(['--once'], { SIGHTLINE_URL: value })).toEqual({
        code: 78,
        stdout: '',
        stderr: `sightline demo: SIGHTLINE_URL "${value}" is not an http:// or https:// URL\n`,
      });
    }
    // --url wins over the environment, so a good one makes a bad variable harmless.
    expect(await demo(['--url', service.url, '--once', '--seed', '3'], { SIGHTLINE_URL: 'not-a-url' })).toMatchObject({
      code: 0,
    });
  });

  it('no service at the URL (--url, or SIGHTLINE_URL): one line naming it and npm start, exit 69', async () => {
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}`;
    const line = (at: string) =>
      `sightline demo: cannot reach the service at ${at} (connection refused): start it with \`npm start\` (or \`sightline serve\`), or pass --url\n`;
    expect(await demo(['--url', url, '--once'])).toEqual({ code: 69, stdout: '', stderr: line(url) });
    expect(await demo(['--once'], { SIGHTLINE_URL: url })).toEqual({ code: 69, stdout: '', stderr: line(url) });
  });

  it('a host name that does not resolve: one line saying to check the URL, not to start the service, exit 69', async () => {
    // .invalid never resolves (RFC 2606).
    const url = 'http://no-such-host.invalid:8080';
    expect(await demo(['--url', url, '--once'])).toEqual({
      code: 69,
      stdout: '',
      stderr: `sightline demo: cannot reach the service at ${url} (host not found): check the host name in --url (or SIGHTLINE_URL)\n`,
    });
  });

  it('a port that fetch refuses (the Fetch standard blocks 6000, as browsers do): one line saying so, exit 1', async () => {
    expect(await demo(['--url', 'http://127.0.0.1:6000', '--once'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'sightline demo: http://127.0.0.1:6000: fetch refuses to connect to port 6000 (a port browsers block); run the service on another port\n',
    });
  });

  it('a refused token: one line, exit 1', async () => {
    expect(await demo(['--url', service.url, '--token', 'not-a-token', '--once'])).toEqual({
      code: 1,
      stdout: 'using the given token\n',
      stderr:
        'sightline demo: the service refused the token (401): pass a personal access token from Settings → Account\n',
    });
  });

  it('a wrong --password for an account that exists: check them (before: to pass the --password just passed)', async () => {
    // The first case registered the default demo account.
    expect(await demo(['--url', service.url, '--password', 'not the demo password', '--once'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'sightline demo: cannot sign in as demo@example.com (401) nor register it (422: an account with this e-mail address already exists); check --email and --password, or pass --token with a personal access token (Settings → Account)\n',
    });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s (Ctrl-C, or a supervisor) between batches stops the loop: "stopped", exit 0',
    async (signal) => {
      const child = spawn(process.execPath, [SIGHTLINE_BIN, 'demo', '--url', service.url], {
        env: demoEnvironment(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (/ sent \d+ calls/.test(stdout)) resolve();
        });
        void exited.then(() => reject(new Error(`demo exited before its first batch:\n${stdout}${stderr}`)));
      });
      expect(stdout).toContain(`sending to ${service.url} a batch every 5 s (Ctrl-C stops)`);
      child.kill(signal);
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(stdout).toMatch(/ sent \d+ calls[^\n]*\nstopped\n$/);
      expect(stderr).toBe('');
    },
  );
}, 120_000);
