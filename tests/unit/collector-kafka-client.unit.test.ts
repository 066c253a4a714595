// The collector's use of its Kafka client (@platformatic/kafka): keys land on the partitions Kafka's
// Java client and kafkajs pick, and the client's nested errors are read for the 503 cases.
import { randomBytes } from "node:crypto";
import { GenericError, MultipleErrors, NetworkError, ProtocolError, ResponseError, UserError } from "@platformatic/kafka";
import kafkajs from "kafkajs";
import { describe, expect, it } from "vitest";
import { describeKafkaError, isTopicExists, isUnknownTopic } from "../../collector/src/kafka-errors.js";
import { recordPartitioner } from "../../collector/src/partitioner.js";

const { Partitioners } = kafkajs;

describe("recordPartitioner", () => {
  it("matches Java's Utils.toPositive(Utils.murmur2(key)) on Kafka's own test vectors", () => {
    // org.apache.kafka.common.utils.UtilsTest#testMurmur2: murmur2 values; toPositive clears bit 31.
    const java: [string, number][] = [
      ["21", -973932308],
      ["foobar", -790332482],
      ["a-little-bit-long-string", -985981536],
      ["a-little-bit-longer-string", -1486304829],
      ["lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971],
      ["abc", 479470107],
    ];
    for (const [key, murmur] of java) expect([key, recordPartitioner({ key: Buffer.from(key) })]).toEqual([key, murmur & 0x7fffffff]);
  });

  it("agrees with kafkajs's murmur2 (sign bit cleared) on random keys of every length 0..64", () => {
    const reference = Partitioners.DefaultPartitioner();
    // With 2^31 - 1 partitions kafkajs's toPositive(murmur2(key)) % n is the hash itself except for one value.
    const n = 0x7fffffff;
    // Only its length and filter are read for a keyed message.
    const partitionMetadata = { length: n, filter: () => [] } as unknown as kafkajs.PartitionMetadata[];
    for (let len = 0; len <= 64; len++) {
      const key = randomBytes(len);
      expect([len, recordPartitioner({ key }) % n]).toEqual([len, reference({ topic: "t", partitionMetadata, message: { key, value: null } })]);
    }
  });

  it("puts a record without a key on partition 0", () => {
    expect(recordPartitioner({})).toBe(0);
  });

  it("gives kafkajs's DefaultPartitioner partition for 2,000 random trace ids at 1, 3, 7 and 12 partitions", () => {
    const reference = Partitioners.DefaultPartitioner();
    for (const n of [1, 3, 7, 12]) {
      const partitionMetadata = Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: 1, partitionErrorCode: 0, replicas: [1], isr: [1] }));
      const diff: string[] = [];
      for (let i = 0; i < 2_000; i++) {
        const key = randomBytes(16).toString("hex");
        const ours = recordPartitioner({ key: Buffer.from(key) }) % n;
        const theirs = reference({ topic: "t", partitionMetadata, message: { key, value: null } });
        if (ours !== theirs) diff.push(`${key}: ${ours} vs ${theirs}`);
      }
      expect(diff).toEqual([]);
    }
  });
});

describe("Kafka client errors", () => {
  const unknownTopic = new ResponseError(0, 9, { "/responses/0/partitionResponses/0": [3, null] }, {});
  const exists = new ResponseError(19, 7, { "/topics/0": [36, null] }, {});
  const down = new MultipleErrors("initProducerId failed 3 times.", [
    new MultipleErrors("Cannot connect to any broker.", [new NetworkError("Connection to 127.0.0.1:1 failed.")]),
    new MultipleErrors("Cannot connect to any broker.", [new NetworkError("Connection to 127.0.0.1:1 failed.")]),
  ]);

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

  it("describes nested errors in one line, each message once", () => {
    expect(describeKafkaError(down)).toBe("initProducerId failed 3 times: Cannot connect to any broker: Connection to 127.0.0.1:1 failed");
    expect(describeKafkaError(new GenericError("PLT_KFK_USER", "plain."))).toBe("plain");
    expect(describeKafkaError("text")).toBe("text");
  });
});
