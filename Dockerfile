# One image for every service; the Helm chart chooses the entry point per component:
#   services/lookup/src/server.ts, services/autocomplete/src/server.ts, services/account-billing/src/server.ts,
#   services/account-billing/src/worker.ts, services/plans/src/server.ts, services/stack/src/migrate-all.ts
# Build from the repository root: docker build -t property-api .
# The services run their TypeScript through tsx (a production dependency) with OpenTelemetry started by --import.

FROM node:20.19-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY services/lookup/package.json services/lookup/
COPY services/autocomplete/package.json services/autocomplete/
COPY services/account-billing/package.json services/account-billing/
COPY services/plans/package.json services/plans/
COPY services/ingest/package.json services/ingest/
COPY services/stack/package.json services/stack/
COPY gateway/plugin/package.json gateway/plugin/
COPY gateway/local/package.json gateway/local/
# Production dependencies of the services only: no dev tools, no embedded PostgreSQL (services/stack is not
# installed), no install scripts (none of these packages needs one at run time).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      -w shared -w services/lookup -w services/autocomplete -w services/account-billing -w services/plans -w services/ingest \
      --include-workspace-root \
 && npm cache clean --force

FROM node:20.19-bookworm-slim
ENV NODE_ENV=production \
    INTERNAL_HOST=0.0.0.0 \
    INTERNAL_PORT=9464
WORKDIR /app
COPY --chown=root:root package.json tsconfig.base.json ./
COPY --chown=root:root shared ./shared
COPY --chown=root:root services ./services
# node_modules (with the @pra/* workspace links) and the workspaces' own nested node_modules.
COPY --from=deps --chown=root:root /app/ ./
# The code is owned by root and read-only to the service user; tsx's cache goes to /tmp (an emptyDir in the chart).
USER node
EXPOSE 8081 8082 8083 8084 8090 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.INTERNAL_PORT||9464)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--import", "tsx", "--import", "./shared/src/telemetry/register.ts"]
CMD ["services/lookup/src/server.ts"]
