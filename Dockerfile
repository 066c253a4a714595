# The ragmeter image: the `ragmeter` CLI (collector, scorer, eval, report …) on Node 20.
# Built by docker-compose.yml for the collector and scorer services. The embedded engine (chdb, an
# optional dependency) is left out: in a container ragmeter talks to a ClickHouse server (CLICKHOUSE_URL).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --omit=optional --ignore-scripts --no-audit --no-fund \
  && npx tsc -b \
  && npm prune --omit=dev --omit=optional --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 4318
CMD ["node", "scorer/bin/ragmeter.js", "--help"]
