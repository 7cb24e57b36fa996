# One image for every service; the Helm chart chooses the bundle per component:
#   dist/lookup.js, dist/autocomplete.js, dist/account-billing.js, dist/billing-worker.js, dist/plans.js,
#   dist/webhooks-worker.js (webhook deliveries),
#   dist/migrate.js (the pre-install/pre-upgrade Job), dist/admin.js and dist/ingest.js (operators' commands; its
#   worker threads run dist/import-worker.js and dist/generate-worker.js)
#   (an import from the image with the options `npm run ingest` gives node, before the bundle; the entry point still
#   starts OpenTelemetry first, in the main thread only: its worker threads load none of the SDK; each thread may take
#   256 MB of heap: give an import 1.5 GB or more with its two default workers, 256 MB more a further --workers one:
#   `docker run property-api --min-semi-space-size=64 --initial-heap-size=256 dist/ingest.js import --mapping M --file F`)
# Build from the repository root: docker build -t property-api .
# The services run compiled JavaScript (npm run build: one esbuild bundle per entry point, telemetry-register's SDK in
# chunks beside it) with OpenTelemetry started by --import; neither tsx nor the TypeScript compiler is in the image.

FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund && npm run build

FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/core/package.json shared/core/
COPY shared/platform/package.json shared/platform/
COPY services/lookup/package.json services/lookup/
COPY services/autocomplete/package.json services/autocomplete/
COPY services/account-billing/package.json services/account-billing/
COPY services/plans/package.json services/plans/
COPY services/ingest/package.json services/ingest/
COPY services/webhooks/package.json services/webhooks/
# Production dependencies of the services only: no dev tools (tsx, typescript, esbuild), no embedded PostgreSQL
# (services/stack is not installed), no install scripts (none of these packages needs one at run time).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      -w shared/core -w shared/platform -w services/lookup -w services/autocomplete -w services/account-billing \
      -w services/plans -w services/ingest -w services/webhooks --include-workspace-root \
 && npm cache clean --force

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    INTERNAL_HOST=0.0.0.0 \
    INTERNAL_PORT=9464
WORKDIR /app
COPY --from=deps --chown=root:root /app/ ./
COPY --from=build --chown=root:root /app/dist ./dist
# Files the bundles read at their source locations: SQL migrations, USPS tables, ingest mappings, the samples (npm
# run ingest -- sample) and the reference lists (the generator's, and the owner-name parser's census surnames and SSA
# first names: every import reads them); test/build.test.ts runs from a copy of these.
COPY --chown=root:root shared/core/data ./shared/core/data
COPY --chown=root:root services/ingest/migrations ./services/ingest/migrations
COPY --chown=root:root services/ingest/mappings ./services/ingest/mappings
COPY --chown=root:root services/ingest/samples ./services/ingest/samples
COPY --chown=root:root services/ingest/reference ./services/ingest/reference
COPY --chown=root:root services/account-billing/migrations ./services/account-billing/migrations
COPY --chown=root:root services/autocomplete/migrations ./services/autocomplete/migrations
COPY --chown=root:root services/webhooks/migrations ./services/webhooks/migrations
# The code is owned by root and read-only to the service user.
USER node
EXPOSE 8081 8082 8083 8084 8090 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.INTERNAL_PORT||9464)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--enable-source-maps", "--import", "./dist/telemetry-register.js"]
CMD ["dist/lookup.js"]
