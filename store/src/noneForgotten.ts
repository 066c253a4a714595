/**
 * Databases whose `forgotten_traces` an embedded store's handle found empty: only `forget` through
 * this handle adds to them (the store's lock keeps every other process out), and it forgets the mark.
 * Shared by the copies a caller makes of the handle with another client or database (keyed by database).
 */
export class NoneForgotten {
  readonly #databases = new Set<string>();
  has(database: string): boolean {
    return this.#databases.has(database);
  }
  add(database: string): void {
    this.#databases.add(database);
  }
  delete(database: string): void {
    this.#databases.delete(database);
  }
}
