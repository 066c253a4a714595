import { describe, expect, it } from "vitest";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { CollectorConfigError } from "../../collector/src/errors.js";

describe("collector config", () => {
  it("has the documented defaults", () => {
    const c = loadCollectorConfig({}, {});
    expect(c).toMatchObject({ port: 4318, brokers: ["127.0.0.1:9092"], topic: "ragmeter.spans", idempotent: true, maxMessageBytes: 1_000_000 });
    expect(c.token).toBeUndefined();
  });

  it("reads the environment; flags win", () => {
    const env = { KAFKA_BROKERS: "a:9092, b:9093", RAGMETER_TOPIC: "t", RAGMETER_COLLECTOR_PORT: "5000", RAGMETER_COLLECTOR_TOKEN: "x", RAGMETER_KAFKA_IDEMPOTENT: "false" };
    const c = loadCollectorConfig(env, { port: 6000 });
    expect(c).toMatchObject({ brokers: ["a:9092", "b:9093"], topic: "t", port: 6000, token: "x", idempotent: false });
  });

  it("names the variable of an invalid value", () => {
    expect(() => loadCollectorConfig({ RAGMETER_COLLECTOR_PORT: "http" }, {})).toThrow(CollectorConfigError);
    expect(() => loadCollectorConfig({ KAFKA_BROKERS: "nohostport" }, {})).toThrow(/KAFKA_BROKERS/);
    expect(() => loadCollectorConfig({}, { port: 70000 })).toThrow(/flag --port/);
    expect(() => loadCollectorConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "sometimes" }, {})).toThrow(/RAGMETER_RELEASE_STARTUP_PAGES: must be true or false/);
  });

  it("releases the startup pages unless told not to", () => {
    expect(loadCollectorConfig({}, {}).releaseStartupPages).toBe(true);
    expect(loadCollectorConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "false" }, {}).releaseStartupPages).toBe(false);
    expect(loadCollectorConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "0" }, {}).releaseStartupPages).toBe(false);
  });
});
