/**
 * Coalesced last-use times of credentials (personal access tokens, sessions) by id. Authentication records a use in memory;
 * one statement writes every recorded use each `flushMs` (and on close), so a request made with a
 * token adds no write of its own. A failed write keeps the uses for the next flush.
 */
export interface TokenUse {
  id: string;
  at: Date;
}

export class TokenUseRecorder {
  private pending = new Map<string, Date>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (uses: TokenUse[]) => Promise<void>,
    options: { flushMs: number; onError: (error: unknown) => void },
  ) {
    this.timer = setInterval(() => void this.flush().catch(options.onError), options.flushMs).unref();
  }

  record(id: string, at: Date): void {
    this.pending.set(id, at);
  }

  /** Writes the recorded uses now (the token list calls it, so its caller sees their own uses). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const uses = [...this.pending].map(([id, at]) => ({ id, at }));
    this.pending = new Map();
    try {
      await this.write(uses);
    } catch (error) {
      for (const use of uses) if (!this.pending.has(use.id)) this.pending.set(use.id, use.at);
      throw error;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
