/**
 * A real SMTP server on loopback (`smtp-server`, from nodemailer's authors) that keeps every
 * message it accepts, parsed by `mailparser`: tests send mail through the service's real SMTP
 * client and read what arrived. Plain SMTP without STARTTLS (the server's built-in certificate is
 * self-signed); optionally with a required login, with recipients it refuses, and refusing the
 * next recipients whoever they are (a server that fails for a while, then accepts again).
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listenOnLoopback } from './loopback.js';

export interface TestMailServer {
  /** SMTP_URL for the service (with the login when one is required). */
  url: string;
  /** Every accepted message, in arrival order. */
  messages: ParsedMail[];
  /** Refuses the next `count` recipients (451, try again later), then accepts again. */
  refuseNext(count?: number): void;
  /** The next message not yet taken by `next()`, waiting for it up to `timeoutMs`. */
  next(timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export interface MailServerOptions {
  login?: { user: string; password: string };
  /** Recipients answered with 550 (the send fails). */
  refuse?: RegExp;
}

export async function startMailServer(options: MailServerOptions = {}): Promise<TestMailServer> {
  const messages: ParsedMail[] = [];
  let taken = 0;
  let refusalsLeft = 0;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: options.login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.login,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === options.login?.user && auth.password === options.login?.password)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (refusalsLeft > 0) {
        refusalsLeft--;
        callback(Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 }));
      } else if (options.refuse?.test(address.address)) {
        const refusal = Object.assign(new Error('no such mailbox here'), { responseCode: 550 });
        callback(refusal);
      } else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // SMTPServer.listen() is its net.Server's listen().
  const { port } = await listenOnLoopback(server.server);
  const login = options.login
    ? `${encodeURIComponent(options.login.user)}:${encodeURIComponent(options.login.password)}@`
    : '';
  return {
    url: `smtp://${login}127.0.0.1:${port}`,
    messages,
    refuseNext(count = 1) {
      refusalsLeft = count;
    },
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= taken) {
        if (Date.now() > deadline) throw new Error(`no mail arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages[taken++]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): URL {
  const match = (mail.text ?? '').split(/\s+/).find((word) => word.startsWith(prefix));
  if (!match) throw new Error(`no ${prefix} link in the mail:\n${mail.text}`);
  return new URL(match);
}
