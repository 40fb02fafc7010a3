/**
 * Scope: the owner of subscriptions (GUIDE rule 5). Everything a view model
 * subscribes to is added to its scope, and ending the scope ends them all,
 * children first. A scope that has ended ends anything added to it at once,
 * so a late async result cannot leak a subscription.
 */

export class Scope {
  private readonly cleanups: Array<() => void> = [];
  private readonly children = new Set<Scope>();
  private endedFlag = false;

  get ended(): boolean {
    return this.endedFlag;
  }

  /** Adds an unsubscribe (or any cleanup) to run when the scope ends. */
  add(cleanup: () => void): void {
    if (this.endedFlag) {
      cleanup();
      return;
    }
    this.cleanups.push(cleanup);
  }

  /** Subscribes and keeps the unsubscribe in this scope. */
  subscribe<A extends unknown[]>(
    source: { subscribe(listener: (...args: A) => void): () => void },
    listener: (...args: A) => void,
  ): void {
    this.add(source.subscribe(listener));
  }

  /** A scope that ends with this one (or earlier, on its own). */
  child(): Scope {
    const child = new Scope();
    if (this.endedFlag) {
      child.end();
      return child;
    }
    this.children.add(child);
    child.add(() => this.children.delete(child));
    return child;
  }

  /** Ends every child and runs every cleanup, most recent first; a failing cleanup does not stop the rest. */
  end(): void {
    if (this.endedFlag) return;
    this.endedFlag = true;
    for (const child of [...this.children]) child.end();
    while (this.cleanups.length > 0) {
      const cleanup = this.cleanups.pop();
      try {
        cleanup?.();
      } catch (error) {
        console.error("Scope cleanup failed", error);
      }
    }
  }
}
