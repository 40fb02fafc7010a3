/**
 * Fault injection for client tests: for requests matching a path pattern,
 * delay, fail with a status, rate-limit, drop the connection or answer
 * garbage; or take the whole server offline. Reset between tests.
 */

export interface FaultRule {
  /** A substring or regular expression the request path must match. */
  path: string | RegExp;
  /** Only this method (any when unset). */
  method?: string;
  /** Wait this long before handling (or before failing). */
  delayMs?: number;
  /** Answer with this status and errcode instead of handling. */
  status?: number;
  errcode?: string;
  /** Answer 429 M_LIMIT_EXCEEDED with this retry_after_ms. */
  rateLimitMs?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Answer 200 with a body that is not JSON. */
  garbage?: boolean;
  /** Apply this many times, then remove the rule (unlimited when unset). */
  times?: number;
}

export interface FaultAction {
  rule: FaultRule;
}

export class FaultInjector {
  private rules: Array<FaultRule & { remaining: number }> = [];
  private offlineFlag = false;
  /** Requests that matched a rule, for assertions. */
  readonly hits: Array<{ method: string; path: string }> = [];

  /** Adds a rule; returns a function that removes it. */
  add(rule: FaultRule): () => void {
    const entry = { ...rule, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.rules.push(entry);
    return () => {
      this.rules = this.rules.filter((r) => r !== entry);
    };
  }

  /** Takes the server offline (every connection is dropped) or back online. */
  setOffline(offline: boolean): void {
    this.offlineFlag = offline;
  }

  get offline(): boolean {
    return this.offlineFlag;
  }

  /** Removes every rule and brings the server back online. */
  reset(): void {
    this.rules = [];
    this.offlineFlag = false;
    this.hits.length = 0;
  }

  /** The rule to apply to this request, consuming one use of it. */
  take(method: string, path: string): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      const matches = typeof rule.path === "string" ? path.includes(rule.path) : rule.path.test(path);
      if (!matches) continue;
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
      this.hits.push({ method, path });
      return rule;
    }
    return undefined;
  }
}
