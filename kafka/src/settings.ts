/**
 * The Kafka settings the collector and the scorer share, validated by one zod schema (design §10)
 * whose fields are their settings' types in the one settings catalog (@ragmeter/runtime):
 * where the brokers are (`KAFKA_BROKERS`), the topic (`RAGMETER_TOPIC`), and how to reach a
 * secured broker — TLS with the CA and a client certificate from PEM files, SASL PLAIN or
 * SCRAM-SHA-256/512 (`RAGMETER_KAFKA_SECURITY_PROTOCOL`, `RAGMETER_KAFKA_SASL_*`,
 * `RAGMETER_KAFKA_SSL_*`). Files are read once, when the settings are loaded, so a missing or
 * unreadable file is a configuration error naming its variable, not a failure at the first send.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { RagmeterError, rawSettings, SASL_MECHANISMS, SECURITY_PROTOCOLS, SETTINGS } from "@ragmeter/runtime";
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the locales, JSON Schema): collector bundle −430 KiB

/** Default topic of spans and log events. */
export const DEFAULT_TOPIC = "ragmeter.spans";
/** Default bootstrap servers: the local broker of `npm run kafka:start`. */
export const DEFAULT_BROKERS: readonly string[] = ["127.0.0.1:9092"];

/** How the clients talk to the brokers (declared with the settings, @ragmeter/runtime). */
export { SASL_MECHANISMS, SECURITY_PROTOCOLS };
/** See {@link SECURITY_PROTOCOLS}. */
export type SecurityProtocol = (typeof SECURITY_PROTOCOLS)[number];
/** See {@link SASL_MECHANISMS}. */
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/** The environment variable of each shared Kafka setting (one name per setting). */
export const KAFKA_ENV = {
  brokers: "KAFKA_BROKERS",
  topic: "RAGMETER_TOPIC",
  securityProtocol: "RAGMETER_KAFKA_SECURITY_PROTOCOL",
  saslMechanism: "RAGMETER_KAFKA_SASL_MECHANISM",
  saslUsername: "RAGMETER_KAFKA_SASL_USERNAME",
  saslPassword: "RAGMETER_KAFKA_SASL_PASSWORD",
  saslPasswordFile: "RAGMETER_KAFKA_SASL_PASSWORD_FILE",
  sslCaFile: "RAGMETER_KAFKA_SSL_CA_FILE",
  sslCertFile: "RAGMETER_KAFKA_SSL_CERT_FILE",
  sslKeyFile: "RAGMETER_KAFKA_SSL_KEY_FILE",
} as const;

/** SASL credentials. */
export interface SaslCredentials {
  readonly mechanism: SaslMechanism;
  readonly username: string;
  readonly password: string;
}

/** TLS material, PEM text (absent CA: the system's CAs). */
export interface TlsMaterial {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/** How to reach the brokers: the protocol, with SASL credentials and TLS material when it uses them. */
export interface KafkaSecurity {
  readonly protocol: SecurityProtocol;
  /** Present exactly for `SASL_PLAINTEXT` and `SASL_SSL`. */
  readonly sasl?: SaslCredentials;
  /** Present exactly for `SSL` and `SASL_SSL`. */
  readonly tls?: TlsMaterial;
}

/** Plain TCP, no authentication (Kafka's default listener). */
export const PLAINTEXT: KafkaSecurity = { protocol: "PLAINTEXT" };

/** Where the brokers are and how to reach them: what every client of the module is built from. */
export interface KafkaConnection {
  readonly brokers: readonly string[];
  readonly security: KafkaSecurity;
}

/** Broker list: `a:9092,b:9092` or an array of `host:port`; at least one (the type of `KAFKA_BROKERS` in the settings catalog). */
export const brokerListSchema = SETTINGS.KAFKA_BROKERS.type.unwrap();

/** Topic name (non-empty). */
export const topicSchema = z.string().min(1);

const tlsProtocols: readonly SecurityProtocol[] = ["SSL", "SASL_SSL"];
const saslProtocols: readonly SecurityProtocol[] = ["SASL_PLAINTEXT", "SASL_SSL"];
const usesTls = (p: SecurityProtocol): boolean => tlsProtocols.includes(p);
const usesSasl = (p: SecurityProtocol): boolean => saslProtocols.includes(p);

/** A settled security object (what {@link kafkaEnvSchema} produces, or a caller passes in code): its parts match its protocol. */
export const kafkaSecuritySchema = z
  .object({
    protocol: z.enum(SECURITY_PROTOCOLS),
    sasl: z.object({ mechanism: z.enum(SASL_MECHANISMS), username: z.string().min(1), password: z.string().min(1) }).optional(),
    tls: z.object({ ca: z.string().optional(), cert: z.string().optional(), key: z.string().optional() }).optional(),
  })
  .refine((s) => usesSasl(s.protocol) === (s.sasl !== undefined), { message: "SASL credentials go with SASL_PLAINTEXT or SASL_SSL, and only with them" })
  .refine((s) => usesTls(s.protocol) || s.tls === undefined, { message: "TLS material goes with SSL or SASL_SSL only" })
  .transform((s): KafkaSecurity => (usesTls(s.protocol) ? { ...s, tls: s.tls ?? {} } : s));

/** PEM block a file must hold, per setting. */
const PEM: Record<"sslCaFile" | "sslCertFile" | "sslKeyFile", { re: RegExp; what: string }> = {
  sslCaFile: { re: /-----BEGIN CERTIFICATE-----/u, what: "a certificate" },
  sslCertFile: { re: /-----BEGIN CERTIFICATE-----/u, what: "a certificate" },
  sslKeyFile: { re: /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/u, what: "an unencrypted private key" },
};

/** The shared Kafka variables, each read by its setting's type. */
const kafkaEnvObject = z.object({
  KAFKA_BROKERS: SETTINGS.KAFKA_BROKERS.type,
  RAGMETER_TOPIC: SETTINGS.RAGMETER_TOPIC.type,
  RAGMETER_KAFKA_SECURITY_PROTOCOL: SETTINGS.RAGMETER_KAFKA_SECURITY_PROTOCOL.type,
  RAGMETER_KAFKA_SASL_MECHANISM: SETTINGS.RAGMETER_KAFKA_SASL_MECHANISM.type,
  RAGMETER_KAFKA_SASL_USERNAME: SETTINGS.RAGMETER_KAFKA_SASL_USERNAME.type,
  RAGMETER_KAFKA_SASL_PASSWORD: SETTINGS.RAGMETER_KAFKA_SASL_PASSWORD.type,
  RAGMETER_KAFKA_SASL_PASSWORD_FILE: SETTINGS.RAGMETER_KAFKA_SASL_PASSWORD_FILE.type,
  RAGMETER_KAFKA_SSL_CA_FILE: SETTINGS.RAGMETER_KAFKA_SSL_CA_FILE.type,
  RAGMETER_KAFKA_SSL_CERT_FILE: SETTINGS.RAGMETER_KAFKA_SSL_CERT_FILE.type,
  RAGMETER_KAFKA_SSL_KEY_FILE: SETTINGS.RAGMETER_KAFKA_SSL_KEY_FILE.type,
});

/**
 * The shared Kafka environment, keyed by variable name: brokers (optional here; each process picks
 * its default), topic, and the security settings, checked together (SASL settings need a SASL
 * protocol, a client certificate needs its key, …) and turned into a {@link KafkaSecurity} with
 * the files read. Issues carry the variable's name as their path.
 */
export const kafkaEnvSchema = kafkaEnvObject.transform((e, ctx) => {
  const protocol = e.RAGMETER_KAFKA_SECURITY_PROTOCOL;
  const issue: Issue = (variable, message) => void ctx.issues.push({ code: "custom", path: [variable], message, input: e });
  const read: ReadFile = (key, file) => readSettingFile(key, file, issue);
  const saslVars = [KAFKA_ENV.saslMechanism, KAFKA_ENV.saslUsername, KAFKA_ENV.saslPassword, KAFKA_ENV.saslPasswordFile] as const;
  const tlsVars = [KAFKA_ENV.sslCaFile, KAFKA_ENV.sslCertFile, KAFKA_ENV.sslKeyFile] as const;
  let sasl: SaslCredentials | undefined;
  if (usesSasl(protocol)) sasl = saslCredentials(e, issue, read);
  else refuseUnused(e, saslVars, "SASL_SSL or SASL_PLAINTEXT", issue);
  let tls: TlsMaterial | undefined;
  if (usesTls(protocol)) tls = tlsMaterial(e, issue, read);
  else refuseUnused(e, tlsVars, "SSL or SASL_SSL", issue);
  const security: KafkaSecurity = { protocol, ...(sasl !== undefined ? { sasl } : {}), ...(tls !== undefined ? { tls } : {}) };
  return { brokers: e.KAFKA_BROKERS, topic: e.RAGMETER_TOPIC, security };
});

/** The shared Kafka variables as their settings read them, before the security checks. */
type RawKafkaEnv = z.output<typeof kafkaEnvObject>;
/** Records an issue on a variable. */
type Issue = (variable: string, message: string) => void;
/** Reads a file named by a setting; undefined when it cannot be read (the issue recorded). */
type ReadFile = (key: keyof typeof PEM | "saslPasswordFile", file: string) => string | undefined;

/** A file named by a setting: the SASL password (one line, not empty) or a PEM file holding what the setting needs. */
function readSettingFile(key: keyof typeof PEM | "saslPasswordFile", file: string, issue: Issue): string | undefined {
  const variable = KAFKA_ENV[key];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    issue(variable, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return undefined;
  }
  if (key === "saslPasswordFile") {
    const password = text.replace(/\r?\n$/u, "");
    if (password === "") issue(variable, `${file} is empty`);
    return password;
  }
  if (!PEM[key].re.test(text)) issue(variable, `${file} is not a PEM file holding ${PEM[key].what}`);
  return text;
}

/** Each of `vars` set under a protocol that does not use it is an issue. */
function refuseUnused(e: RawKafkaEnv, vars: readonly (keyof RawKafkaEnv)[], use: string, issue: Issue): void {
  for (const v of vars) {
    if (e[v] !== undefined) issue(v, `is set but ${KAFKA_ENV.securityProtocol} is ${e.RAGMETER_KAFKA_SECURITY_PROTOCOL}: use ${use}`);
  }
}

/** The SASL credentials of a SASL protocol: mechanism, username and a password (given, or read from its file). */
function saslCredentials(e: RawKafkaEnv, issue: Issue, read: ReadFile): SaslCredentials | undefined {
  const protocol = e.RAGMETER_KAFKA_SECURITY_PROTOCOL;
  const mechanism = e.RAGMETER_KAFKA_SASL_MECHANISM;
  const username = e.RAGMETER_KAFKA_SASL_USERNAME;
  if (mechanism === undefined) issue(KAFKA_ENV.saslMechanism, `required with ${KAFKA_ENV.securityProtocol}=${protocol} (${SASL_MECHANISMS.join(", ")})`);
  if (username === undefined) issue(KAFKA_ENV.saslUsername, `required with ${KAFKA_ENV.securityProtocol}=${protocol}`);
  const password = saslPassword(e, issue, read);
  return mechanism !== undefined && username !== undefined && password !== undefined ? { mechanism, username, password } : undefined;
}

/** The SASL password: given, or read from its file (one of the two). */
function saslPassword(e: RawKafkaEnv, issue: Issue, read: ReadFile): string | undefined {
  const password = e.RAGMETER_KAFKA_SASL_PASSWORD;
  const file = e.RAGMETER_KAFKA_SASL_PASSWORD_FILE;
  if (password !== undefined && file !== undefined) {
    issue(KAFKA_ENV.saslPasswordFile, `set either ${KAFKA_ENV.saslPassword} or ${KAFKA_ENV.saslPasswordFile}, not both`);
    return password;
  }
  if (file !== undefined) return read("saslPasswordFile", file);
  if (password === undefined) issue(KAFKA_ENV.saslPassword, `required with ${KAFKA_ENV.securityProtocol}=${e.RAGMETER_KAFKA_SECURITY_PROTOCOL} (or ${KAFKA_ENV.saslPasswordFile})`);
  return password;
}

/** The TLS material of a TLS protocol: the CA, and a client certificate with its key (both or neither), read from their files. */
function tlsMaterial(e: RawKafkaEnv, issue: Issue, read: ReadFile): TlsMaterial {
  const cert = e.RAGMETER_KAFKA_SSL_CERT_FILE;
  const key = e.RAGMETER_KAFKA_SSL_KEY_FILE;
  if ((cert === undefined) !== (key === undefined)) {
    issue(
      cert === undefined ? KAFKA_ENV.sslCertFile : KAFKA_ENV.sslKeyFile,
      `required with ${cert === undefined ? KAFKA_ENV.sslKeyFile : KAFKA_ENV.sslCertFile} (a client certificate and its key)`,
    );
  }
  const material: { ca?: string; cert?: string; key?: string } = {};
  if (e.RAGMETER_KAFKA_SSL_CA_FILE !== undefined) material.ca = read("sslCaFile", e.RAGMETER_KAFKA_SSL_CA_FILE) ?? "";
  if (cert !== undefined) material.cert = read("sslCertFile", cert) ?? "";
  if (key !== undefined) material.key = read("sslKeyFile", key) ?? "";
  return material;
}

/** The validated shared Kafka environment. */
export type KafkaEnv = z.output<typeof kafkaEnvSchema>;

/** Names of the variables {@link kafkaEnvSchema} reads. */
export const KAFKA_ENV_NAMES: readonly string[] = Object.values(KAFKA_ENV);
/** Their settings in the catalog (read by its one reader: empty counts as unset). */
const KAFKA_SETTINGS = Object.values(KAFKA_ENV).map((name) => SETTINGS[name]);

/** One invalid setting: the variable (or flag) and what is wrong with it. */
export interface KafkaSettingIssue {
  readonly setting: string;
  readonly message: string;
}

/** Invalid Kafka settings; `issues` name each setting (the CLIs exit with code 2). */
export class KafkaConfigError extends RagmeterError {
  override readonly name = "KafkaConfigError";
  readonly issues: readonly KafkaSettingIssue[];
  constructor(issues: readonly KafkaSettingIssue[]) {
    super(issues.map((i) => `${i.setting}: ${i.message}`).join("; "), { code: "config" });
    this.issues = issues;
  }
}

/**
 * Reads the shared Kafka settings from `env` (empty values count as unset).
 * @param sources where a value came from when not from its variable (e.g. `{ KAFKA_BROKERS: "flag --brokers" }`), for the error
 * @throws KafkaConfigError naming each invalid setting
 */
export function loadKafkaEnv(env: Readonly<Record<string, string | undefined>>, sources: Readonly<Record<string, string>> = {}): KafkaEnv {
  const r = kafkaEnvSchema.safeParse(rawSettings(KAFKA_SETTINGS, env).raw);
  if (r.success) return r.data;
  throw new KafkaConfigError(
    r.error.issues.map((i) => {
      const name = String(i.path[0] ?? "");
      return { setting: sources[name] ?? name, message: i.message };
    }),
  );
}

/** The connection options of @platformatic/kafka's clients for `c`: bootstrap brokers, TLS and SASL. */
export function clientOptions(c: KafkaConnection): {
  bootstrapBrokers: string[];
  tls?: { ca?: string; cert?: string; key?: string };
  tlsServerName?: boolean;
  sasl?: { mechanism: SaslMechanism; username: string; password: string };
} {
  const out: ReturnType<typeof clientOptions> = { bootstrapBrokers: [...c.brokers] };
  const { tls, sasl } = c.security;
  if (tls !== undefined) {
    out.tls = { ...tls };
    // SNI names the broker a TLS proxy or a managed service routes to; RFC 6066 forbids it for an IP
    // address (Node warns), so it is sent when a broker is given by name.
    if (c.brokers.some((b) => isIP(b.slice(0, b.lastIndexOf(":")).replace(/^\[|\]$/gu, "")) === 0)) out.tlsServerName = true;
  }
  if (sasl !== undefined) out.sasl = { ...sasl };
  return out;
}
