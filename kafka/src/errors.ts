/**
 * Reading the errors of the Kafka client (@platformatic/kafka). They nest — an AggregateError of
 * retries, each with its protocol errors and causes — so the tree is walked to tell what happened:
 * a broker that cannot be reached, credentials or a certificate it refused, a topic that does not
 * exist, a rebalance. Each kind says whether trying again later can succeed (`retriable`), and
 * {@link explainKafkaError} gives one line naming the setting to check.
 */
import { type ErrorCode, RagmeterError } from "@ragmeter/runtime";
import { KAFKA_ENV, type KafkaSecurity } from "./settings.js";

interface ErrorNode {
  message?: unknown;
  code?: unknown;
  apiId?: unknown;
  canRetry?: unknown;
  needsRejoin?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Every error in the tree under `err` (itself first, then `errors` and `cause`, breadth first, bounded). */
function walk(err: unknown, max = 64): ErrorNode[] {
  const out: ErrorNode[] = [];
  const queue: unknown[] = [err];
  const seen = new Set<unknown>();
  while (queue.length > 0 && out.length < max) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const node = e as ErrorNode;
    out.push(node);
    if (Array.isArray(node.errors)) queue.push(...node.errors);
    if (node.cause !== undefined) queue.push(node.cause);
  }
  return out;
}

/** What went wrong, as far as the caller can act on it. */
export const KAFKA_ERROR_KINDS = ["authentication", "authorization", "tls", "unreachable", "unknown-topic", "topic-exists", "rebalance", "too-large", "other"] as const;
/** See {@link KAFKA_ERROR_KINDS}. */
export type KafkaErrorKind = (typeof KAFKA_ERROR_KINDS)[number];

/** Kinds that trying again later can mend on its own (the broker comes back, the topic is created, the group settles). */
const RETRIABLE: ReadonlySet<KafkaErrorKind> = new Set(["unreachable", "unknown-topic", "rebalance"]);

/** Node's codes of a TLS handshake that failed on the certificate or the protocol. */
const TLS_CODES = /^(?:ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|CERT_|EPROTO$)/u;
const AUTHENTICATION_IDS = new Set(["SASL_AUTHENTICATION_FAILED", "UNSUPPORTED_SASL_MECHANISM", "ILLEGAL_SASL_STATE"]);
const AUTHORIZATION_IDS = new Set(["TOPIC_AUTHORIZATION_FAILED", "GROUP_AUTHORIZATION_FAILED", "CLUSTER_AUTHORIZATION_FAILED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"]);

/** The kind of `err` (the first that matches, most specific first) and whether a retry can succeed. */
export function classifyKafkaError(err: unknown): { kind: KafkaErrorKind; retriable: boolean } {
  const nodes = walk(err);
  const has = (test: (e: ErrorNode) => boolean): boolean => nodes.some(test);
  const msg = (e: ErrorNode): string => (typeof e.message === "string" ? e.message : "");
  let kind: KafkaErrorKind = "other";
  if (has((e) => e.code === "PLT_KFK_AUTHENTICATION" || AUTHENTICATION_IDS.has(String(e.apiId)))) kind = "authentication";
  else if (has((e) => AUTHORIZATION_IDS.has(String(e.apiId)))) kind = "authorization";
  else if (has((e) => (typeof e.code === "string" && TLS_CODES.test(e.code)) || /requires TLS/iu.test(msg(e)))) kind = "tls";
  else if (isTopicExists(err)) kind = "topic-exists";
  else if (isUnknownTopic(err)) kind = "unknown-topic";
  else if (has((e) => e.needsRejoin === true)) kind = "rebalance";
  else if (has((e) => e.apiId === "MESSAGE_TOO_LARGE" || e.apiId === "RECORD_LIST_TOO_LARGE")) kind = "too-large";
  else if (
    has(
      (e) =>
        e.code === "PLT_KFK_NETWORK" ||
        e.code === "ECONNREFUSED" ||
        e.code === "ECONNRESET" ||
        e.code === "ETIMEDOUT" ||
        e.code === "ENOTFOUND" ||
        e.code === "EAI_AGAIN" ||
        /Cannot connect to any broker|Connection to .* failed|timed out/iu.test(msg(e)),
    )
  )
    kind = "unreachable";
  const retriable = RETRIABLE.has(kind) || (kind === "other" && !has((e) => e.canRetry === false) && has((e) => e.canRetry === true));
  return { kind, retriable };
}

/** True when the error (or one nested in it) says the topic or one of its partitions does not exist. */
export function isUnknownTopic(err: unknown): boolean {
  return walk(err).some(
    (e) =>
      e.apiId === "UNKNOWN_TOPIC_OR_PARTITION" ||
      e.apiId === "UNKNOWN_TOPIC_ID" ||
      (typeof e.message === "string" && /^Unknown topic |does not host this topic-partition/u.test(e.message)),
  );
}

/** True when the error (or one nested in it) says the topic already exists. */
export function isTopicExists(err: unknown): boolean {
  return walk(err).some((e) => e.apiId === "TOPIC_ALREADY_EXISTS" || (typeof e.message === "string" && /already exists/iu.test(e.message)));
}

/**
 * One line for a log or an error body: the top message, then the distinct messages nested in it
 * (e.g. `initProducerId failed 3 times: Cannot connect to any broker: Connection to 127.0.0.1:1 failed`).
 */
export function describeKafkaError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts: string[] = [];
  for (const e of walk(err, 16)) {
    const m = typeof e.message === "string" ? e.message.trim().replace(/\.$/u, "") : "";
    if (m !== "" && !parts.includes(m)) parts.push(m);
  }
  return parts.length > 0 ? parts.slice(0, 4).join(": ") : err.name;
}

/**
 * One line saying what failed and which setting to check, for the errors a setting causes (refused
 * credentials, a certificate not trusted, a protocol the listener does not speak); otherwise
 * {@link describeKafkaError}.
 */
export function explainKafkaError(err: unknown, security: KafkaSecurity): string {
  const { kind } = classifyKafkaError(err);
  const detail = describeKafkaError(err);
  if (kind === "authentication") {
    const who = security.sasl !== undefined ? ` (${security.sasl.mechanism} as user "${security.sasl.username}")` : "";
    return `Kafka refused the SASL credentials${who}: check ${KAFKA_ENV.saslUsername}, ${KAFKA_ENV.saslPassword} (or ${KAFKA_ENV.saslPasswordFile}) and ${KAFKA_ENV.saslMechanism} [${detail}]`;
  }
  if (kind === "tls" && security.tls === undefined) {
    return `the Kafka broker's listener requires TLS: set ${KAFKA_ENV.securityProtocol} to SSL or SASL_SSL [${detail}]`;
  }
  if (kind === "tls") {
    return `TLS with the Kafka broker failed: check ${KAFKA_ENV.sslCaFile} (the CA that signed the broker's certificate) and, when the broker asks for one, ${KAFKA_ENV.sslCertFile} and ${KAFKA_ENV.sslKeyFile} [${detail}]`;
  }
  if (kind === "authorization") return `Kafka denied the operation to this client's principal (ACLs) [${detail}]`;
  if (kind === "unreachable" && security.protocol !== "PLAINTEXT") {
    const cert = security.tls !== undefined && security.tls.cert === undefined ? `, or it requires a client certificate (${KAFKA_ENV.sslCertFile}, ${KAFKA_ENV.sslKeyFile})` : "";
    return `Kafka is unreachable over ${security.protocol} or closed the connection: check ${KAFKA_ENV.securityProtocol} (a listener of another protocol closes it)${cert} [${detail}]`;
  }
  return detail;
}

/** The root's code of a kind: refused credentials and failed TLS come from settings, a record too large from the data, the rest from the broker. */
function codeOf(kind: KafkaErrorKind): ErrorCode {
  if (kind === "authentication" || kind === "tls") return "config";
  return kind === "too-large" ? "input" : "unavailable";
}

/**
 * An error of the Kafka module: what happened, whether a retry can succeed, and the client's error
 * as the cause. The CLI's line names the class (`ragmeter: KafkaError: …`).
 */
export class KafkaError extends RagmeterError {
  override readonly name = "KafkaError";
  readonly kind: KafkaErrorKind;
  constructor(message: string, kind: KafkaErrorKind, retriable: boolean, options?: { cause?: unknown }) {
    super(message, { code: codeOf(kind), retriable, cause: options?.cause, named: true });
    this.kind = kind;
  }

  /** Wraps a client error: classified, with one line that names the setting to check. */
  static from(err: unknown, security: KafkaSecurity, context?: string): KafkaError {
    if (err instanceof KafkaError) return err;
    const { kind, retriable } = classifyKafkaError(err);
    const line = explainKafkaError(err, security);
    return new KafkaError(context === undefined ? line : `${context}: ${line}`, kind, retriable, { cause: err });
  }
}
