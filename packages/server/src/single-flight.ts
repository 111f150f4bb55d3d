// One read at a time per key: a call for a key while an earlier call's read is under way gets that
// read's promise instead of starting its own. Under load, tens of requests find a cached figure
// or key expired at once; each starting its own store read was tens of identical round trips.
export class SingleFlight<K, T> {
  private readonly running = new Map<K, Promise<T>>();

  run(key: K, read: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current) return current;
    const p = read();
    this.running.set(key, p);
    const done = () => {
      if (this.running.get(key) === p) this.running.delete(key);
    };
    p.then(done, done);
    return p;
  }

  /** Forgets every read under way: later calls start their own (their answers may have changed). */
  clear(): void {
    this.running.clear();
  }
}
