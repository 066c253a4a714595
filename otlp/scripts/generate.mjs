#!/usr/bin/env node
// Generates otlp/generated/otlp.js (+ otlp.d.ts) from the vendored .proto files with protobufjs-cli
// (static code: no reflection at run time, the fastest protobufjs decoder). Usage:
//   npm run -w @ragmeter/otlp generate            writes otlp/generated/
//   node otlp/scripts/generate.mjs <dir>          writes <dir>/ instead (the staleness test)
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pbjs } from "protobufjs-cli";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.resolve(process.argv[2] ?? path.join(root, "generated"));
const protoDir = path.join(root, "proto");

/** The messages the codecs use: the trace and logs export services and google.rpc.Status. */
export const PROTO_FILES = ["opentelemetry/proto/collector/trace/v1/trace_service.proto", "opentelemetry/proto/collector/logs/v1/logs_service.proto", "google/rpc/status.proto"];

await mkdir(outDir, { recursive: true });
const args = [
  "--target",
  "static-module",
  "--wrap",
  "esm",
  "--dependency",
  "protobufjs/minimal.js",
  "--root",
  "ragmeter_otlp", // own protobuf.roots entry: never shares "default" with other generated code
  "--path",
  protoDir,
  "--no-create",
  "--no-verify",
  "--no-convert",
  "--no-delimited",
  "--no-service",
  "--no-typeurl",
  "--dts",
  "--out",
  path.join(outDir, "otlp.js"),
  ...PROTO_FILES.map((f) => path.join(protoDir, f)),
];
await new Promise((resolve, reject) => {
  pbjs.main(args, (err) => (err ? reject(err) : resolve(undefined)));
});
process.stdout.write(`generated ${path.relative(process.cwd(), path.join(outDir, "otlp.js"))} and otlp.d.ts\n`);
