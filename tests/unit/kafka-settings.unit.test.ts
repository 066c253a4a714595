// The Kafka settings the collector and the scorer share (@ragmeter/kafka, design §10): one schema
// for brokers, topic and security; every mistake is an error naming its variable; both processes
// read them the same way.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { clientOptions, KafkaConfigError, loadKafkaEnv } from "../../kafka/src/settings.js";
import { loadStreamConfig } from "../../stream/src/config.js";

const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-kafka-settings-"));
const file = (name: string, text: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const CERT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";
const ca = file("ca.pem", CERT);
const cert = file("client.pem", CERT);
const key = file("client.key", KEY);
const passwordFile = file("password", "from-a-file\n");

/** The issues of an invalid environment, as `variable: message` lines. */
function issues(env: Record<string, string>): string[] {
  try {
    loadKafkaEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(KafkaConfigError);
    return (err as KafkaConfigError).issues.map((i) => `${i.setting}: ${i.message}`);
  }
  throw new Error("no error");
}

describe("shared Kafka settings", () => {
  it("defaults: no brokers (each process picks its own), ragmeter.spans, PLAINTEXT", () => {
    expect(loadKafkaEnv({})).toEqual({ brokers: undefined, topic: "ragmeter.spans", security: { protocol: "PLAINTEXT" } });
  });

  it("SASL_SSL with SCRAM-SHA-512, the CA and a client certificate read from their files", () => {
    const k = loadKafkaEnv({
      KAFKA_BROKERS: "kafka-1.example.com:9094,10.0.0.2:9094",
      RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_SSL",
      RAGMETER_KAFKA_SASL_MECHANISM: "SCRAM-SHA-512",
      RAGMETER_KAFKA_SASL_USERNAME: "ragmeter",
      RAGMETER_KAFKA_SASL_PASSWORD: "s3cret",
      RAGMETER_KAFKA_SSL_CA_FILE: ca,
      RAGMETER_KAFKA_SSL_CERT_FILE: cert,
      RAGMETER_KAFKA_SSL_KEY_FILE: key,
    });
    expect(k.security).toEqual({ protocol: "SASL_SSL", sasl: { mechanism: "SCRAM-SHA-512", username: "ragmeter", password: "s3cret" }, tls: { ca: CERT, cert: CERT, key: KEY } });
    // What the client is given: TLS material, SASL credentials, and SNI since a broker is named by host name.
    expect(clientOptions({ brokers: k.brokers ?? [], security: k.security })).toEqual({
      bootstrapBrokers: ["kafka-1.example.com:9094", "10.0.0.2:9094"],
      tls: { ca: CERT, cert: CERT, key: KEY },
      tlsServerName: true,
      sasl: { mechanism: "SCRAM-SHA-512", username: "ragmeter", password: "s3cret" },
    });
  });

  it("SSL alone: the system CAs when no CA file is given, no SNI for an IP address; SASL_PLAINTEXT with PLAIN and a password file", () => {
    const ssl = loadKafkaEnv({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL" });
    expect(ssl.security).toEqual({ protocol: "SSL", tls: {} });
    expect(clientOptions({ brokers: ["127.0.0.1:9093"], security: ssl.security })).toEqual({ bootstrapBrokers: ["127.0.0.1:9093"], tls: {} });
    const plain = loadKafkaEnv({
      RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_PLAINTEXT",
      RAGMETER_KAFKA_SASL_MECHANISM: "PLAIN",
      RAGMETER_KAFKA_SASL_USERNAME: "u",
      RAGMETER_KAFKA_SASL_PASSWORD_FILE: passwordFile,
    });
    expect(plain.security).toEqual({ protocol: "SASL_PLAINTEXT", sasl: { mechanism: "PLAIN", username: "u", password: "from-a-file" } });
  });

  it("each mistake is an issue naming its variable", () => {
    const sasl = { RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_SSL" };
    expect(issues({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "TLS" })).toEqual(["RAGMETER_KAFKA_SECURITY_PROTOCOL: must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"]);
    expect(issues(sasl)).toEqual([
      "RAGMETER_KAFKA_SASL_MECHANISM: required with RAGMETER_KAFKA_SECURITY_PROTOCOL=SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)",
      "RAGMETER_KAFKA_SASL_USERNAME: required with RAGMETER_KAFKA_SECURITY_PROTOCOL=SASL_SSL",
      "RAGMETER_KAFKA_SASL_PASSWORD: required with RAGMETER_KAFKA_SECURITY_PROTOCOL=SASL_SSL (or RAGMETER_KAFKA_SASL_PASSWORD_FILE)",
    ]);
    expect(issues({ ...sasl, RAGMETER_KAFKA_SASL_MECHANISM: "GSSAPI", RAGMETER_KAFKA_SASL_USERNAME: "u", RAGMETER_KAFKA_SASL_PASSWORD: "p" })).toEqual([
      "RAGMETER_KAFKA_SASL_MECHANISM: must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512",
    ]);
    expect(
      issues({
        ...sasl,
        RAGMETER_KAFKA_SASL_MECHANISM: "PLAIN",
        RAGMETER_KAFKA_SASL_USERNAME: "u",
        RAGMETER_KAFKA_SASL_PASSWORD: "p",
        RAGMETER_KAFKA_SASL_PASSWORD_FILE: passwordFile,
      }),
    ).toEqual(["RAGMETER_KAFKA_SASL_PASSWORD_FILE: set either RAGMETER_KAFKA_SASL_PASSWORD or RAGMETER_KAFKA_SASL_PASSWORD_FILE, not both"]);
    expect(issues({ RAGMETER_KAFKA_SASL_USERNAME: "u" })).toEqual([
      "RAGMETER_KAFKA_SASL_USERNAME: is set but RAGMETER_KAFKA_SECURITY_PROTOCOL is PLAINTEXT: use SASL_SSL or SASL_PLAINTEXT",
    ]);
    expect(
      issues({
        RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_PLAINTEXT",
        RAGMETER_KAFKA_SASL_MECHANISM: "PLAIN",
        RAGMETER_KAFKA_SASL_USERNAME: "u",
        RAGMETER_KAFKA_SASL_PASSWORD: "p",
        RAGMETER_KAFKA_SSL_CA_FILE: ca,
      }),
    ).toEqual(["RAGMETER_KAFKA_SSL_CA_FILE: is set but RAGMETER_KAFKA_SECURITY_PROTOCOL is SASL_PLAINTEXT: use SSL or SASL_SSL"]);
    expect(issues({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL", RAGMETER_KAFKA_SSL_CERT_FILE: cert })).toEqual([
      "RAGMETER_KAFKA_SSL_KEY_FILE: required with RAGMETER_KAFKA_SSL_CERT_FILE (a client certificate and its key)",
    ]);
    expect(issues({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL", RAGMETER_KAFKA_SSL_CA_FILE: path.join(dir, "absent.pem") })).toEqual([
      `RAGMETER_KAFKA_SSL_CA_FILE: cannot read ${path.join(dir, "absent.pem")}: ENOENT`,
    ]);
    expect(issues({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL", RAGMETER_KAFKA_SSL_CA_FILE: key })).toEqual([
      `RAGMETER_KAFKA_SSL_CA_FILE: ${key} is not a PEM file holding a certificate`,
    ]);
    expect(issues({ RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL", RAGMETER_KAFKA_SSL_CERT_FILE: cert, RAGMETER_KAFKA_SSL_KEY_FILE: cert })).toEqual([
      `RAGMETER_KAFKA_SSL_KEY_FILE: ${cert} is not a PEM file holding an unencrypted private key`,
    ]);
    expect(issues({ KAFKA_BROKERS: "nohostport" })).toEqual(["KAFKA_BROKERS: must be host:port"]);
  });

  it("the collector and the scorer read the same settings from the same variables", () => {
    const env = {
      KAFKA_BROKERS: "127.0.0.1:9094",
      RAGMETER_TOPIC: "spans",
      RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_SSL",
      RAGMETER_KAFKA_SASL_MECHANISM: "SCRAM-SHA-256",
      RAGMETER_KAFKA_SASL_USERNAME: "ragmeter",
      RAGMETER_KAFKA_SASL_PASSWORD_FILE: passwordFile,
      RAGMETER_KAFKA_SSL_CA_FILE: ca,
    };
    const collector = loadCollectorConfig(env, {});
    const scorer = loadStreamConfig(env);
    const want = { protocol: "SASL_SSL", sasl: { mechanism: "SCRAM-SHA-256", username: "ragmeter", password: "from-a-file" }, tls: { ca: CERT } };
    expect([collector.brokers, collector.topic, collector.security]).toEqual([["127.0.0.1:9094"], "spans", want]);
    expect([scorer.brokers, scorer.topic, scorer.security]).toEqual([["127.0.0.1:9094"], "spans", want]);
  });

  it("each process names the variable (or flag) in its own error form", () => {
    const bad = { RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_SSL", RAGMETER_KAFKA_SASL_MECHANISM: "PLAIN", RAGMETER_KAFKA_SASL_USERNAME: "u" };
    expect(() => loadCollectorConfig(bad, {})).toThrow(
      "invalid collector configuration: RAGMETER_KAFKA_SASL_PASSWORD: required with RAGMETER_KAFKA_SECURITY_PROTOCOL=SASL_SSL (or RAGMETER_KAFKA_SASL_PASSWORD_FILE)",
    );
    expect(() => loadStreamConfig(bad)).toThrow(
      "environment variable RAGMETER_KAFKA_SASL_PASSWORD: required with RAGMETER_KAFKA_SECURITY_PROTOCOL=SASL_SSL (or RAGMETER_KAFKA_SASL_PASSWORD_FILE)",
    );
    expect(() => loadCollectorConfig({}, { brokers: "x" })).toThrow("invalid collector configuration: flag --brokers: must be host:port");
    expect(() => loadStreamConfig({}, { brokers: "x" })).toThrow(/^flag --brokers: must be host:port$/u);
    // A flag stands in for its variable: a bad KAFKA_BROKERS under --brokers is not read.
    expect(loadCollectorConfig({ KAFKA_BROKERS: "bad" }, { brokers: "a:1" }).brokers).toEqual(["a:1"]);
  });
});
