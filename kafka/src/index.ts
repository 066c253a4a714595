/**
 * @ragmeter/kafka — ragmeter's one Kafka module, on @platformatic/kafka: the shared connection
 * settings (brokers, topic, TLS, SASL), the producer and admin clients, a batch consumer with
 * store-then-commit and rebalance handling, topic setup, and error classification.
 */
export { type BytesProducer, baseOptions, type ClientTiming, createAdmin, createProducer, type KafkaAdmin, type ProducedRecord, type ProducerSettings } from "./clients.js";
export {
  type BatchConsumer,
  type BatchConsumerSettings,
  type BatchContext,
  type BatchHandler,
  type ConsumedRecord,
  type KafkaLogger,
  type PartitionBatch,
  startBatchConsumer,
} from "./consumer.js";
export {
  classifyKafkaError,
  describeKafkaError,
  explainKafkaError,
  isTopicExists,
  isUnknownTopic,
  KAFKA_ERROR_KINDS,
  KafkaError,
  type KafkaErrorKind,
} from "./errors.js";
export {
  brokerListSchema,
  clientOptions,
  DEFAULT_BROKERS,
  DEFAULT_TOPIC,
  KAFKA_ENV,
  KAFKA_ENV_NAMES,
  KafkaConfigError,
  type KafkaConnection,
  type KafkaEnv,
  type KafkaSecurity,
  type KafkaSettingIssue,
  kafkaEnvSchema,
  kafkaSecuritySchema,
  loadKafkaEnv,
  PLAINTEXT,
  SASL_MECHANISMS,
  type SaslCredentials,
  type SaslMechanism,
  SECURITY_PROTOCOLS,
  type SecurityProtocol,
  type TlsMaterial,
  topicSchema,
} from "./settings.js";
export { committedOffsets, ensureTopics, groupLag, setUpTopics, type TopicLogger, type TopicPolicy, type TopicSetup, type TopicSetupOptions, topicOffsets } from "./topics.js";
