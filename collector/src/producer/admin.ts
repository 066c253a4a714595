/** The sink's admin client: made when first needed, dropped (closed in the background) after a failure. */
import { createAdmin, type KafkaAdmin, type KafkaConnection } from "@ragmeter/kafka";

export interface AdminHolder {
  /** The admin client, made now if there is none. */
  get(): KafkaAdmin;
  /** Forgets the client (closing it, errors ignored) so the next `get()` reconnects. */
  drop(): void;
  /** The client if one exists (for close). */
  current(): KafkaAdmin | undefined;
}

export function createAdminHolder(
  connection: KafkaConnection,
  clientId: string,
  timing: { connectTimeoutMs: number; requestTimeoutMs: number; retryDelayMs: number },
): AdminHolder {
  let admin: KafkaAdmin | undefined;
  return {
    get() {
      admin ??= createAdmin(connection, clientId, { ...timing, retries: 0 });
      return admin;
    },
    drop() {
      const a = admin;
      admin = undefined;
      a?.close().catch(() => {});
    },
    current: () => admin,
  };
}
