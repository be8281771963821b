/**
 * Outgoing mail through a real SMTP server on loopback: the SMTP client logs in with the
 * credentials of SMTP_URL, invitations are mailed to the invitee (the answer still carries the
 * link), and a mail that fails never fails the invitation; its failure is described without the
 * message or the credentials. Invitations, and so their mails, are limited to 50 an hour per
 * organization and 5 an hour per recipient across organizations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer, describeMailFailure } from '../../src/application/mail.js';
import { linkIn, startMailServer, type TestMailServer } from '../support/mail-server.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { bearer, call } from '../support/access.js';

const PUBLIC_URL = 'https://sightline.test';
const LOGIN = { user: 'sightline', password: 'smtp password 123' };

describe('mail', () => {
  let mail: TestMailServer;
  let service: TestService;

  beforeAll(async () => {
    mail = await startMailServer({ login: LOGIN, refuse: /^bounce@/ });
    service = await startTestService({
      PUBLIC_URL,
      SMTP_URL: mail.url,
      MAIL_FROM: 'Sightline Alerts <alerts@example.com>',
    });
  });
  afterAll(async () => {
    await service?.close();
    await mail?.close();
  });

  const invite = (admin: Awaited<ReturnType<typeof registerUser>>, email: string) =>
    call(service.app, {
      method: 'POST',
      url: `/api/organizations/${admin.organization.id}/invitations`,
      headers: bearer(admin.token),
      payload: { email, role: 'read-only' },
    });

  it('mails an invitation to the invitee; the answer still holds the link', async () => {
    const admin = await registerUser(service.app, { name: 'Ada Admin' });
    const invited = await invite(admin, 'invitee@example.com');
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      mailQueued: true,
      acceptUrl: `${PUBLIC_URL}/accept-invitation?token=${invited.body!.token}`,
    });
    const message = await mail.next();
    expect(message.from?.value).toEqual([{ name: 'Sightline Alerts', address: 'alerts@example.com' }]);
    expect(message.to).toMatchObject({ value: [{ address: 'invitee@example.com' }] });
    expect(message.subject).toBe("You are invited to Ada Admin's organization on Sightline");
    expect(message.text).toContain('Ada Admin invited you to join');
    expect(linkIn(message, `${PUBLIC_URL}/accept-invitation`).href).toBe(invited.body!.acceptUrl);
  });

  /** The recipients of the next `count` mails, sorted. */
  async function nextRecipients(count: number): Promise<string[]> {
    const recipients: string[] = [];
    for (let i = 0; i < count; i++)
      recipients.push(
        ...((await mail.next()).to as { value: Array<{ address: string }> }).value.map((to) => to.address),
      );
    return recipients.sort();
  }
  const mailsTo = (address: string) =>
    mail.messages.filter(
      (message) => message.to && !Array.isArray(message.to) && message.to.value[0]?.address === address,
    ).length;

  function expectLimited(response: Awaited<ReturnType<typeof call>>) {
    expect(response.status).toBe(429);
    expect(response.body!.error).toMatch(/^Too many requests, try again in \d+s$/);
    expect(response.headers['retry-after']).toBe(/(\d+)s$/.exec(response.body!.error)![1]);
  }

  it('mails one address at most 5 invitations an hour, from all organizations together', async () => {
    const [first, second] = [await registerUser(service.app), await registerUser(service.app)];
    for (const admin of [first, first, first, second, second])
      expect((await invite(admin, 'popular@example.com')).status).toBe(201);
    expectLimited(await invite(first, 'popular@example.com'));
    expectLimited(await invite(second, 'Popular@Example.com'));
    const brandNew = await registerUser(service.app);
    expectLimited(await invite(brandNew, 'popular@example.com'));
    // Another address is not held back, and its mail arrives after every one that was sent.
    expect((await invite(first, 'someone-else@example.com')).status).toBe(201);
    expect(await nextRecipients(6)).toEqual([...Array(5).fill('popular@example.com'), 'someone-else@example.com']);
    expect(mailsTo('popular@example.com')).toBe(5);
  });

  it('an organization sends at most 50 invitations an hour; another organization is not held back', async () => {
    const busy = await registerUser(service.app);
    const addresses = Array.from({ length: 50 }, (_, i) => `team-${i}@example.com`);
    for (const address of addresses) expect((await invite(busy, address)).status).toBe(201);
    expectLimited(await invite(busy, 'one-too-many@example.com'));
    expect((await invite(await registerUser(service.app), 'elsewhere@example.com')).status).toBe(201);
    expect(await nextRecipients(51)).toEqual([...addresses, 'elsewhere@example.com'].sort());
    expect(mailsTo('one-too-many@example.com')).toBe(0);
    const listed = await call(service.app, {
      method: 'GET',
      url: `/api/organizations/${busy.organization.id}/invitations`,
      headers: bearer(busy.token),
    });
    expect(listed.body!.invitations).toHaveLength(50);
  });

  it('an invitation whose mail is refused is still created', async () => {
    const admin = await registerUser(service.app);
    expect((await invite(admin, 'bounce@example.com')).status).toBe(201);
    const listed = await call(service.app, {
      method: 'GET',
      url: `/api/organizations/${admin.organization.id}/invitations`,
      headers: bearer(admin.token),
    });
    expect(listed.body!.invitations).toEqual([
      expect.objectContaining({ email: 'bounce@example.com', status: 'pending' }),
    ]);
  });

  it('describes a failed send by its codes, without the message or the credentials', async () => {
    const refused = new SmtpMailer(mail.url, 'a@example.com');
    const failure = await refused
      .send({ to: 'bounce@example.com', subject: 'secret subject', text: 'secret-link-123' })
      .then(
        () => null,
        (error: unknown) => describeMailFailure(error),
      );
    await refused.close();
    expect(failure).toMatch(/^EENVELOPE: SMTP 550: /);
    expect(failure).not.toMatch(/secret/);

    const wrongLogin = new SmtpMailer(
      mail.url.replace(encodeURIComponent(LOGIN.password), 'wrong-password'),
      'a@example.com',
    );
    const denied = await wrongLogin.send({ to: 'someone@example.com', subject: 's', text: 't' }).then(
      () => null,
      (error: unknown) => describeMailFailure(error),
    );
    await wrongLogin.close();
    expect(denied).toMatch(/^EAUTH: SMTP 535: /);
    expect(denied).not.toContain('wrong-password');
    expect(denied).not.toContain(LOGIN.password);
  });
});
