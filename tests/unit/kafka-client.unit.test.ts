// ragmeter's Kafka module on its client (@platformatic/kafka): keys land on the partition Kafka's
// Java producer picks, and the client's nested errors are classified (kind, retriable) and
// explained in one line naming the setting to check.
import { randomBytes } from "node:crypto";
import { AuthenticationError, compatibilityPartitioner, GenericError, MultipleErrors, NetworkError, ProtocolError, ResponseError, UserError } from "@platformatic/kafka";
import { describe, expect, it } from "vitest";
import { classifyKafkaError, describeKafkaError, explainKafkaError, isTopicExists, isUnknownTopic, KafkaError } from "../../kafka/src/errors.js";
import { javaCompatiblePartitioner, murmur2 } from "../../kafka/src/partitioner.js";
import { PLAINTEXT } from "../../kafka/src/settings.js";
import { javaMurmur2, javaPartition, KAFKA_MURMUR2_VECTORS } from "../helpers/javaPartitioner.js";

// The producer's partitioner (kafka/src/clients.ts createProducer) is kafka/src/partitioner.ts; the
// producer takes its result modulo the partition count.
const producerPartition = (key: Buffer, partitions: number): number => javaCompatiblePartitioner(undefined, key) % partitions;

describe("the producer's partitioner against Kafka's Java producer", () => {
  it("the reference is Kafka's murmur2: Kafka's own test vectors (UtilsTest#testMurmur2)", () => {
    for (const [key, murmur] of KAFKA_MURMUR2_VECTORS) expect([key, javaMurmur2(Buffer.from(key))]).toEqual([key, murmur]);
  });

  it("matches toPositive(murmur2(key)) on Kafka's test vectors", () => {
    const n = 0x7fffffff; // with 2^31 - 1 partitions the partition is the hash itself (but for one value)
    for (const [key, murmur] of KAFKA_MURMUR2_VECTORS) expect([key, producerPartition(Buffer.from(key), n)]).toEqual([key, (murmur & 0x7fffffff) % n]);
  });

  it("agrees with the Java reference on random keys of every length 0..64", () => {
    for (let len = 0; len <= 64; len++) {
      const key = randomBytes(len);
      expect([len, producerPartition(key, 0x7fffffff)]).toEqual([len, javaPartition(key, 0x7fffffff)]);
    }
  });

  it("gives the Java producer's partition for 2,000 random trace ids at 1, 3, 7 and 12 partitions", () => {
    for (const n of [1, 3, 7, 12]) {
      const diff: string[] = [];
      for (let i = 0; i < 2_000; i++) {
        const key = randomBytes(16).toString("hex");
        const ours = producerPartition(Buffer.from(key, "utf8"), n);
        const java = javaPartition(key, n);
        if (ours !== java) diff.push(`${key}: ${ours} vs ${java}`);
      }
      expect(diff).toEqual([]);
    }
  });

  it("a record without a key goes to partition 0 through the partitioner", () => {
    expect(javaCompatiblePartitioner(undefined, undefined)).toBe(0);
    expect(compatibilityPartitioner(undefined as never, undefined as never)).toBe(0);
  });

  it("gives the client's own compatibilityPartitioner's number (BigInt arithmetic) for 5,000 random keys of 0..80 bytes", () => {
    const diff: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const key = randomBytes(i % 81);
      const ours = javaCompatiblePartitioner(undefined, key);
      const client = compatibilityPartitioner(undefined as never, key);
      if (ours !== client) diff.push(`${key.toString("hex")}: ${ours} vs ${client}`);
    }
    expect(diff).toEqual([]);
  });

  it("murmur2 is Kafka's on its own test vectors and on bytes with the high bit set", () => {
    for (const [key, murmur] of KAFKA_MURMUR2_VECTORS) expect([key, murmur2(Buffer.from(key))]).toEqual([key, murmur]);
    const high = Buffer.from([0xff, 0x80, 0xfe, 0x81, 0xc3, 0xa9, 0x7f]);
    for (let len = 0; len <= high.length; len++) expect(murmur2(high.subarray(0, len))).toBe(javaMurmur2(high.subarray(0, len)));
  });
});

describe("Kafka client errors", () => {
  const unknownTopic = new ResponseError(0, 9, { "/responses/0/partitionResponses/0": [3, null] }, {});
  const exists = new ResponseError(19, 7, { "/topics/0": [36, null] }, {});
  const down = new MultipleErrors("initProducerId failed 3 times.", [
    new MultipleErrors("Cannot connect to any broker.", [new NetworkError("Connection to 127.0.0.1:1 failed.")]),
    new MultipleErrors("Cannot connect to any broker.", [new NetworkError("Connection to 127.0.0.1:1 failed.")]),
  ]);
  const refused = new MultipleErrors("Cannot connect to any broker.", [new AuthenticationError("SASL authentication failed.")]);
  const tls = new MultipleErrors("Cannot connect to any broker.", [
    new NetworkError("Connection to 127.0.0.1:9094 failed.", {
      cause: Object.assign(new Error("self-signed certificate in certificate chain"), { code: "SELF_SIGNED_CERT_IN_CHAIN" }),
    }),
  ]);
  const rebalance = new ResponseError(8, 8, { "/topics/0/partitions/0": [22, null] }, {});

  it("tells a missing topic (a protocol error nested in the retries, or the client's metadata check) from a broker down", () => {
    expect(unknownTopic.errors[0]).toBeInstanceOf(ProtocolError);
    expect(isUnknownTopic(new MultipleErrors("produce failed 2 times.", [unknownTopic]))).toBe(true);
    expect(isUnknownTopic(new UserError("Unknown topic ragmeter.spans."))).toBe(true);
    expect(isUnknownTopic(down)).toBe(false);
    expect(isUnknownTopic(exists)).toBe(false);
  });

  it("recognises 'topic already exists' inside a CreateTopics response error", () => {
    expect(isTopicExists(exists)).toBe(true);
    expect(isTopicExists(down)).toBe(false);
  });

  it("classifies each kind and whether a retry can mend it", () => {
    expect(classifyKafkaError(down)).toEqual({ kind: "unreachable", retriable: true });
    expect(classifyKafkaError(refused)).toEqual({ kind: "authentication", retriable: false });
    expect(classifyKafkaError(tls)).toEqual({ kind: "tls", retriable: false });
    expect(classifyKafkaError(new MultipleErrors("produce failed 2 times.", [unknownTopic]))).toEqual({ kind: "unknown-topic", retriable: true });
    expect(classifyKafkaError(exists)).toEqual({ kind: "topic-exists", retriable: false });
    expect(classifyKafkaError(rebalance)).toEqual({ kind: "rebalance", retriable: true }); // ILLEGAL_GENERATION
    expect(classifyKafkaError(new ResponseError(0, 9, { "/responses/0/partitionResponses/0": [29, null] }, {}))).toEqual({ kind: "authorization", retriable: false });
    expect(classifyKafkaError(new ResponseError(0, 9, { "/responses/0/partitionResponses/0": [10, null] }, {}))).toEqual({ kind: "too-large", retriable: false });
    expect(classifyKafkaError(new Error("something else"))).toEqual({ kind: "other", retriable: false });
  });

  it("describes nested errors in one line, each message once", () => {
    expect(describeKafkaError(down)).toBe("initProducerId failed 3 times: Cannot connect to any broker: Connection to 127.0.0.1:1 failed");
    expect(describeKafkaError(new GenericError("PLT_KFK_USER", "plain."))).toBe("plain");
    expect(describeKafkaError("text")).toBe("text");
  });

  it("explains refused credentials and TLS failures in one line naming the settings", () => {
    const sasl = { protocol: "SASL_SSL", sasl: { mechanism: "SCRAM-SHA-512", username: "ragmeter", password: "s3cret-value" }, tls: {} } as const;
    const line = explainKafkaError(refused, sasl);
    expect(line).toBe(
      'Kafka refused the SASL credentials (SCRAM-SHA-512 as user "ragmeter"): check RAGMETER_KAFKA_SASL_USERNAME, RAGMETER_KAFKA_SASL_PASSWORD (or RAGMETER_KAFKA_SASL_PASSWORD_FILE) and RAGMETER_KAFKA_SASL_MECHANISM [Cannot connect to any broker: SASL authentication failed]',
    );
    expect(line).not.toContain("\n");
    expect(line).not.toContain("s3cret-value");
    expect(explainKafkaError(tls, sasl)).toMatch(/^TLS with the Kafka broker failed: check RAGMETER_KAFKA_SSL_CA_FILE .*\[.*self-signed certificate in certificate chain\]$/u);
    expect(explainKafkaError(down, PLAINTEXT)).toBe(describeKafkaError(down));
    const needsTls = new MultipleErrors("Listing topics failed.", [new NetworkError("Broker requires TLS.")]);
    expect(classifyKafkaError(needsTls)).toEqual({ kind: "tls", retriable: false });
    expect(explainKafkaError(needsTls, PLAINTEXT)).toBe(
      "the Kafka broker's listener requires TLS: set RAGMETER_KAFKA_SECURITY_PROTOCOL to SSL or SASL_SSL [Listing topics failed: Broker requires TLS]",
    );
    expect(explainKafkaError(down, { protocol: "SSL", tls: { ca: "…" } })).toBe(
      "Kafka is unreachable over SSL or closed the connection: check RAGMETER_KAFKA_SECURITY_PROTOCOL (a listener of another protocol closes it), or it requires a client certificate (RAGMETER_KAFKA_SSL_CERT_FILE, RAGMETER_KAFKA_SSL_KEY_FILE) [initProducerId failed 3 times: Cannot connect to any broker: Connection to 127.0.0.1:1 failed]",
    );
    const e = KafkaError.from(refused, sasl, "cannot consume t in group g");
    expect([e.kind, e.retriable, e.message.startsWith("cannot consume t in group g: Kafka refused the SASL credentials")]).toEqual(["authentication", false, true]);
  });
});
