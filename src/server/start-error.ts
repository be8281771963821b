/**
 * A start that cannot succeed as configured, for a reason the operator can fix: `sightline serve`
 * prints the message as one line and exits with `exitCode` (sysexits.h), never a stack trace.
 */
export class StartError extends Error {
  override name = 'StartError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * A listener that could not bind, in words: the port taken (75, EX_TEMPFAIL: it works once the
 * other process stops), a privileged port (77, EX_NOPERM), a HOST that is no address of this
 * machine (78, EX_CONFIG). Anything else is left as it is.
 */
export function listenFailure(error: unknown, bind: { variable: string; port: number; host: string }): unknown {
  const { variable, port, host } = bind;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartError(
        `port ${port} on ${host} is in use by another process: stop it, or set ${variable} to a free port`,
        75,
      );
    case 'EACCES':
      return new StartError(
        `not allowed to listen on port ${port} (ports below 1024 need privileges): set ${variable} to 1024 or above, or put a reverse proxy in front`,
        77,
      );
    case 'EADDRNOTAVAIL':
      return new StartError(
        `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0`,
        78,
      );
    default:
      return error;
  }
}
