/**
 * Outgoing mail. Features send through the `Mailer` interface; `SmtpMailer` delivers through
 * nodemailer's SMTP transport configured by SMTP_URL. Without SMTP_URL the service has no mailer
 * (`Services.mailer` is null) and each feature that needs one says so: password reset answers 422,
 * invitations only return their link.
 *
 * Mail goes out after the request has been answered (`sendInBackground`): an answer never waits
 * on a mail server, so its timing tells nothing (password reset must not reveal which addresses
 * have an account) and a mail server that is down never fails the request that wanted to mail.
 */
import { createTransport } from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Waits for the mail being sent, then closes the connections. */
  close(): Promise<void>;
}

export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof createTransport>;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // nodemailer reads host, port, TLS mode and credentials from the URL; the timeouts bound a
    // mail server that accepts the connection and then stalls (nodemailer's defaults are minutes).
    this.transport = createTransport({
      url,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    const sending = this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    this.inFlight.add(sending);
    try {
      await sending;
    } finally {
      this.inFlight.delete(sending);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport.close();
  }
}

export function createMailer(mail: Config['mail']): Mailer | null {
  return mail.smtpUrl === null ? null : new SmtpMailer(mail.smtpUrl, mail.from);
}

/**
 * Sends without making the caller wait; a failure reaches `onError` with a description that holds
 * no part of the message (mail bodies carry links with secrets) and no credentials.
 */
export function sendInBackground(mailer: Mailer, message: MailMessage, onError: (description: string) => void): void {
  mailer.send(message).catch((error: unknown) => onError(describeMailFailure(error)));
}

/** What went wrong, from nodemailer's error fields: its code, the server's reply code, its message. */
export function describeMailFailure(error: unknown): string {
  const { code, responseCode, message } = error as { code?: unknown; responseCode?: unknown; message?: unknown };
  return [
    typeof code === 'string' ? code : null,
    typeof responseCode === 'number' ? `SMTP ${responseCode}` : null,
    typeof message === 'string' ? message : null,
  ]
    .filter((part) => part !== null)
    .join(': ');
}
