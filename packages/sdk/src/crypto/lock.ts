/**
 * A keyed promise chain: work for the same key runs one after another, in
 * call order; different keys run side by side. The encryptor uses it per
 * room (one key share at a time per room) and for the engine's session
 * claims (one getMissingSessions at a time).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier call for `key` has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
