#!/usr/bin/env bash
# Re-fetches the vendored .proto files from Maven Central (see otlp/proto/README.md).
# Usage: bash otlp/scripts/fetch-protos.sh   (needs mvn and unzip; overwrites otlp/proto/*)
set -euo pipefail
OTEL_VERSION=1.9.0-alpha
COMMON_VERSION=2.50.0
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(mvn -q help:evaluate -Dexpression=settings.localRepository -DforceStdout)"
mvn -q dependency:get -Dtransitive=false -Dartifact="io.opentelemetry.proto:opentelemetry-proto:${OTEL_VERSION}"
mvn -q dependency:get -Dtransitive=false -Dartifact="com.google.api.grpc:proto-google-common-protos:${COMMON_VERSION}"
otel="${repo}/io/opentelemetry/proto/opentelemetry-proto/${OTEL_VERSION}/opentelemetry-proto-${OTEL_VERSION}.jar"
common="${repo}/com/google/api/grpc/proto-google-common-protos/${COMMON_VERSION}/proto-google-common-protos-${COMMON_VERSION}.jar"
rm -rf "${here}/proto/opentelemetry"
unzip -q -o "${otel}" 'opentelemetry/proto/*' -d "${here}/proto"
mkdir -p "${here}/proto/google/rpc"
unzip -q -p "${common}" google/rpc/status.proto > "${here}/proto/google/rpc/status.proto"
sha256sum "${otel}" "${common}"
