{{/* Names and labels. */}}
{{- define "property-api.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{/*
An object's name: <fullname>-<suffix>, the fullname cut short only when the whole would pass `max` (63 unless given:
a Service name is a DNS label, and a name often becomes a label value). A name that fits is exactly what it always
was; with a long release name (Helm allows 53 characters) each name still fits. dict "root" $ "suffix" <s> ["max" n]
*/}}
{{- define "property-api.objectName" -}}
{{- $full := include "property-api.fullname" .root -}}
{{- $room := sub (int (.max | default 63)) (add1 (len .suffix)) -}}
{{- printf "%s-%s" ($full | trunc (int $room) | trimSuffix "-") .suffix -}}
{{- end -}}

{{/*
Typesense's StatefulSet name, the stem of its Services and ConfigMap: 52 characters at most, as a StatefulSet's pods
carry the label controller-revision-hash: <name>-<10-character hash>, which must fit 63.
*/}}
{{- define "property-api.typesenseName" -}}
{{- include "property-api.objectName" (dict "root" . "suffix" "typesense" "max" 52) -}}
{{- end -}}

{{- define "property-api.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: dict "root" $ "name" <component>. */}}
{{- define "property-api.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* A component's settings: the shared defaults, overridden by its own keys. */}}
{{- define "property-api.component" -}}
{{- $c := mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy .component) -}}
{{- toYaml $c -}}
{{- end -}}

{{- define "property-api.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Pod and container security: non-root, read-only, no privilege escalation, no capabilities. */}}
{{- define "property-api.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}
{{- define "property-api.containerSecurityContext" -}}
{{ include "property-api.containerSecurityContextAs" 1000 }}
{{- end -}}
{{/* The same for another user id (the argument): a container that runs as its image's own user, such as Typesense. */}}
{{- define "property-api.containerSecurityContextAs" -}}
runAsNonRoot: true
runAsUser: {{ . }}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
{{- end -}}

{{/* One env var from a referenced Secret: dict "ref" <secrets entry> "name" <ENV_NAME>. */}}
{{- define "property-api.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .ref.existingSecret }}
      key: {{ .ref.key }}
{{- end -}}

{{- define "property-api.secretEnvName" -}}
{{- $names := dict "databaseUrl" "DATABASE_URL" "databaseReadUrl" "DATABASE_READ_URL" "redisUrl" "REDIS_URL" "gatewayHmacKey" "GATEWAY_HMAC_KEY" "adminToken" "ADMIN_TOKEN" "marketplaceProxySecret" "MARKETPLACE_PROXY_SECRET" "typesenseApiKey" "TYPESENSE_API_KEY" -}}
{{- get $names . -}}
{{- end -}}

{{/* OpenTelemetry, logs and the internal port: the same for every process. dict "root" $ "name" <component> "c" <settings>. */}}
{{- define "property-api.commonEnv" -}}
- name: OTEL_SERVICE_NAME
  value: {{ .name | quote }}
{{- $otlp := include "property-api.otlpEndpoint" .root }}
{{- if $otlp }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $otlp | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ .root.Values.telemetry.tracesSampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .root.Values.telemetry.tracesSamplerArg | quote }}
{{- end }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.namespace=%s,deployment.environment.name=%s" .root.Release.Namespace .root.Release.Name | quote }}
- name: LOG_LEVEL
  value: {{ .root.Values.telemetry.logLevel | quote }}
- name: INTERNAL_HOST
  value: "0.0.0.0"
- name: INTERNAL_PORT
  value: {{ .c.metricsPort | quote }}
- name: REDIS_PREFIX
  value: {{ .root.Values.redisPrefix | quote }}
{{- end -}}

{{/* The CloudNativePG Cluster's name (cloudnativepg.name, or <fullname>-db). */}}
{{- define "property-api.cnpgName" -}}
{{- $cnpg := .Values.cloudnativepg | default dict -}}
{{- /* 50 characters at most: CloudNativePG's admission webhook refuses a longer Cluster name. */ -}}
{{- $cnpg.name | default (include "property-api.objectName" (dict "root" . "suffix" "db" "max" 50)) -}}
{{- end -}}

{{/*
Where the reads that may lag go: "cnpg" (the Cluster's -ro service, when it has replicas), "external"
(secrets.databaseReadUrl), or "" (no read URL: every read on the primary). Fails on both at once.
*/}}
{{- define "property-api.readUrlSource" -}}
{{- $cnpg := .Values.cloudnativepg | default dict -}}
{{- $external := (.Values.secrets.databaseReadUrl | default dict).existingSecret -}}
{{- if $cnpg.enabled -}}
{{- if $external -}}
{{- fail (printf "cloudnativepg.enabled and secrets.databaseReadUrl (%s) are both set: with CloudNativePG the read URL is its -ro service. Leave secrets.databaseReadUrl.existingSecret empty." $external) -}}
{{- end -}}
{{- if gt (int $cnpg.instances) 1 -}}cnpg{{- end -}}
{{- else if $external -}}external{{- end -}}
{{- end -}}

{{/*
DATABASE_URL, and DATABASE_READ_URL when the component reads from replicas: dict "root" $ "reads" <none|both>.
With CloudNativePG, DATABASE_URL is the `uri` of the operator's <name>-app Secret (host <name>-rw, the primary) and
DATABASE_READ_URL is the same uri with a `host` parameter naming <name>-ro (node-postgres, like libpq, takes the
host parameter over the URL's host), expanded by Kubernetes from DATABASE_URL in the pod: no credential here.
*/}}
{{- define "property-api.databaseEnv" -}}
{{- $root := .root -}}
{{- $cnpg := $root.Values.cloudnativepg | default dict -}}
{{- if $cnpg.enabled }}
{{- include "property-api.secretEnv" (dict "name" "DATABASE_URL" "ref" (dict "existingSecret" (printf "%s-app" (include "property-api.cnpgName" $root)) "key" "uri")) }}
{{- else }}
{{- include "property-api.secretEnv" (dict "name" "DATABASE_URL" "ref" $root.Values.secrets.databaseUrl) }}
{{- end }}
{{- $source := include "property-api.readUrlSource" $root -}}
{{- if and $source (ne (.reads | default "none") "none") }}
{{- if eq $source "cnpg" }}
- name: DATABASE_READ_URL
  value: {{ printf "$(DATABASE_URL)?host=%s-ro.%s" (include "property-api.cnpgName" $root) $root.Release.Namespace | quote }}
{{- else }}
{{ include "property-api.secretEnv" (dict "name" "DATABASE_READ_URL" "ref" $root.Values.secrets.databaseReadUrl) }}
{{- end }}
{{- end }}
{{- end -}}

{{/* REDIS_CLUSTER_NODES when redis.clusterNodes names seeds (every process with REDIS_URL gets it). */}}
{{- define "property-api.redisClusterEnv" -}}
{{- with (.Values.redis | default dict).clusterNodes }}
- name: REDIS_CLUSTER_NODES
  value: {{ join "," . | quote }}
{{- end }}
{{- end -}}

{{/*
PostgreSQL's connection budget, per node. Each enabled component's most pods (maxReplicas when autoscaling, replicas
otherwise, plus the one surge pod of a rolling update) times its pools:
- the primary: every pool and the migration job. A process with DATABASE_READ_URL keeps its request pool on the
  primary (writes, reads that must see them, and the fallback when a replica fails: read-pool.ts);
- with a read URL, the request pools of the components whose database.reads is both, once more on the replicas,
  spread evenly over the replicas less one (one down, its clients reconnected to the others; with one replica, all
  on it). The even spread is an assumption: a Service (CNPG's -ro)
  or a reader endpoint hands each new connection to some replica, and the reserved connections absorb a small skew;
- with CloudNativePG, a replica may be promoted while it still holds its read connections (they stay open through a
  promotion), and every instance has the same max_connections: the primary's share plus one replica's must fit too.
Each must fit that node's max_connections less postgres.reservedConnections. Fails naming every share.
*/}}
{{- define "property-api.connectionBudget" -}}
{{- $source := include "property-api.readUrlSource" . -}}
{{- $cnpg := .Values.cloudnativepg | default dict -}}
{{- $migrations := int .Values.postgres.migrationConnections -}}
{{- $primary := $migrations -}}
{{- $primaryParts := list (printf "migrations %d" $migrations) -}}
{{- $reads := 0 -}}
{{- $readParts := list -}}
{{- range $name, $component := .Values.components -}}
{{- if $component.enabled -}}
{{- $c := fromYaml (include "property-api.component" (dict "root" $ "component" $component)) -}}
{{- $pods := int (ternary $c.autoscaling.maxReplicas $c.replicas (and $c.autoscaling $c.autoscaling.enabled | default false)) -}}
{{- $pool := int ($c.database.pool | default 0) -}}
{{- $worker := int ($c.database.workerPool | default 0) -}}
{{- $mode := ternary ($c.database.reads | default "none") "none" (ne $source "") -}}
{{- $onPrimary := add $pool $worker -}}
{{- $onReplicas := ternary $pool 0 (eq $mode "both") -}}
{{- if gt (int $onPrimary) 0 -}}
{{- $n := mul (add $pods 1) $onPrimary -}}
{{- $primary = add $primary $n -}}
{{- $primaryParts = append $primaryParts (printf "%s (%d+1 pods x %d) %d" $name $pods (int $onPrimary) (int $n)) -}}
{{- end -}}
{{- if gt (int $onReplicas) 0 -}}
{{- $n := mul (add $pods 1) $onReplicas -}}
{{- $reads = add $reads $n -}}
{{- $readParts = append $readParts (printf "%s (%d+1 pods x %d) %d" $name $pods (int $onReplicas) (int $n)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $reserved := int .Values.postgres.reservedConnections -}}
{{- $max := int .Values.postgres.maxConnections -}}
{{- $budget := sub $max $reserved -}}
{{- $advice := "Lower maxReplicas or the components' database.pool/workerPool, raise the node's max_connections (postgres.maxConnections, postgres.read.maxConnections) to what it allows, add replicas, or put PgBouncer in front (charts/README.md)." -}}
{{- if gt (int $primary) (int $budget) -}}
{{- fail (printf "PostgreSQL connection budget exceeded on the primary: %s = %d connections, but postgres.maxConnections %d less postgres.reservedConnections %d leaves %d. %s" (join ", " $primaryParts) (int $primary) $max $reserved (int $budget) $advice) -}}
{{- end -}}
{{- if $source -}}
{{- $replicas := ternary (sub (int $cnpg.instances) 1) (int (.Values.postgres.read | default dict).replicas | default 1) (eq $source "cnpg") -}}
{{- $spread := max 1 (sub $replicas 1) -}}
{{- $perReplica := div (add $reads (sub $spread 1)) $spread -}}
{{- $replicaMax := ternary $max (int ((.Values.postgres.read | default dict).maxConnections | default 0) | default $max) (eq $source "cnpg") -}}
{{- $replicaBudget := sub $replicaMax $reserved -}}
{{- $setting := ternary "postgres.maxConnections (every CloudNativePG instance's)" (ternary "postgres.read.maxConnections" "postgres.maxConnections" (gt (int ((.Values.postgres.read | default dict).maxConnections | default 0)) 0)) (eq $source "cnpg") -}}
{{- $how := ternary (printf "spread over %d of %d replicas, one down" $spread $replicas) "all on the one replica" (gt $replicas 1) -}}
{{- if gt (int $perReplica) (int $replicaBudget) -}}
{{- fail (printf "PostgreSQL connection budget exceeded on a replica: %s = %d read connections, %s: %d a replica, but %s %d less postgres.reservedConnections %d leaves %d. %s" (join ", " $readParts) (int $reads) $how (int $perReplica) $setting $replicaMax $reserved (int $replicaBudget) $advice) -}}
{{- end -}}
{{- if and (eq $source "cnpg") (gt (int (add $primary $perReplica)) (int $budget)) -}}
{{- fail (printf "PostgreSQL connection budget exceeded on a promoted replica: every CloudNativePG instance may become the primary while it holds its read connections: the primary's %d (%s) plus a replica's %d (%s) = %d, but postgres.maxConnections %d less postgres.reservedConnections %d leaves %d. %s" (int $primary) (join ", " $primaryParts) (int $perReplica) $how (int (add $primary $perReplica)) $max $reserved (int $budget) $advice) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /*
The OTLP endpoint every process sends traces and metrics to: telemetry.otlpEndpoint, or this release's collector
when collector.enabled; empty: nothing is exported. Used by property-api.commonEnv (_helpers.tpl).
*/}}
{{- define "property-api.otlpEndpoint" -}}
{{- if (.Values.collector | default dict).enabled -}}
{{- if .Values.telemetry.otlpEndpoint -}}
{{- fail (printf "collector.enabled and telemetry.otlpEndpoint (%s) are both set: the services send to one place. Either leave telemetry.otlpEndpoint empty (the services send to this release's collector, which forwards to collector.exporters: charts/README.md), or turn the collector off." .Values.telemetry.otlpEndpoint) -}}
{{- end -}}
{{- printf "http://%s.%s.svc:%d" (include "property-api.objectName" (dict "root" . "suffix" "collector")) .Release.Namespace (int .Values.collector.ports.otlpHttp) -}}
{{- else -}}
{{- .Values.telemetry.otlpEndpoint -}}
{{- end -}}
{{- end -}}

{{/* The components that run this release's code (every process that talks to PostgreSQL, Redis or the collector), as
a YAML flow list for NetworkPolicy matchExpressions. A new component goes here, or it misses its policies. */}}
{{- define "property-api.processComponents" -}}
[lookup, autocomplete, account-billing, usage-worker, webhooks-worker, plans, migrate, rekey]
{{- end -}}
