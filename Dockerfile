# The ragmeter image: the `ragmeter` CLI (collector, scorer, eval, report …) on Node 24, installed from
# the same npm tarball a team installs (`npm i ragmeter`). Built by docker-compose.yml for the
# collector and scorer services. The embedded engine (chdb, an optional dependency) is left out: in a
# container ragmeter talks to a ClickHouse server (CLICKHOUSE_URL).
#
# Stage 1 packs the tarball as `npm run packages` does (scripts/pack/pack.mjs: tsc, the esbuild
# bundle of the CLI, npm pack). It installs the optional dependencies too, because esbuild's binary
# is one (@esbuild/<platform>); nothing of this stage but the tarball reaches the image.
FROM node:24-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund \
  && node scripts/pack/pack.mjs --out /packages

# Stage 2 installs it into /opt/ragmeter with its third-party dependencies from the registry, without
# chdb, and puts its bin on PATH. A project install, not `npm install --global`: npm 11 ignores
# --omit=optional for global installs (chdb, 540 MB, would come along). --omit=optional also leaves
# out koffi's prebuilt binary (@koromix/koffi-<platform>, @ragmeter/tuning's FFI), as the image did
# before: the collector logs "startup pages not released" (design §12) and runs the same. The
# package carries the store's schema migrations (migrations/*.sql beside dist/, store/migrations):
# the build fails here when they are missing.
# --ignore-scripts: koffi's install script would only look for that binary (the repository's
# allowScripts says the same).
FROM node:24-bookworm-slim
ENV NODE_ENV=production
COPY --from=pack /packages/ /tmp/packages/
WORKDIR /opt/ragmeter
RUN echo '{"name": "ragmeter-image", "private": true}' > package.json \
  && npm install --omit=optional --ignore-scripts --no-audit --no-fund /tmp/packages/ragmeter-*.tgz \
  && ln -s /opt/ragmeter/node_modules/.bin/ragmeter /usr/local/bin/ragmeter \
  && ls /opt/ragmeter/node_modules/ragmeter/migrations/001_*.sql \
  && rm -rf /tmp/packages /root/.npm \
  && ragmeter --version
USER node
WORKDIR /home/node
EXPOSE 4318
CMD ["ragmeter", "--help"]
