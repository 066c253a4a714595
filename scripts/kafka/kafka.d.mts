// Types of scripts/kafka/kafka.mjs for TypeScript callers (tests).
export declare class KafkaScriptError extends Error {}
export interface KafkaScriptOptions {
  env?: Record<string, string | undefined>;
  log?: (msg: string) => void;
  timeoutMs?: number;
}
export declare function startKafka(options?: KafkaScriptOptions): Promise<{ status: "started" | "running"; pid?: number; port: number }>;
export declare function stopKafka(options?: KafkaScriptOptions): Promise<{ status: "stopped" | "not-running" }>;
export declare function kafkaStatus(options?: KafkaScriptOptions): Promise<{ running: boolean; answering: boolean; pid?: number; port: number; stateDir: string }>;
export declare function brokerAnswers(settings?: unknown, timeoutMs?: number): Promise<boolean>;
export declare function checkJava(settings?: unknown): number;
/** What a client needs to reach the secured listeners (RAGMETER_KAFKA_SASL_SSL_PORT, RAGMETER_KAFKA_MTLS_PORT). */
export interface SecureMaterial {
  saslSslPort?: number;
  mtlsPort?: number;
  /** PEM files made with keytool: the CA, a client certificate signed by it, the client's key. */
  caFile: string;
  certFile: string;
  keyFile: string;
  /** The SASL user the broker knows (PLAIN and SCRAM-SHA-256/512). */
  username: string;
  password: string;
}
export declare function secureMaterial(options?: { env?: Record<string, string | undefined> }): SecureMaterial;
