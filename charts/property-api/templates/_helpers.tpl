{{/* Names and labels. */}}
{{- define "property-api.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
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
{{- $names := dict "databaseUrl" "DATABASE_URL" "redisUrl" "REDIS_URL" "gatewayHmacKey" "GATEWAY_HMAC_KEY" "adminToken" "ADMIN_TOKEN" "marketplaceProxySecret" "MARKETPLACE_PROXY_SECRET" "typesenseApiKey" "TYPESENSE_API_KEY" -}}
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

{{/*
PostgreSQL's connection budget: the most connections this release can open (each enabled component's most pods,
maxReplicas when autoscaling or replicas otherwise, plus the one surge pod of a rolling update, times its pools;
plus the migration job) must fit in postgres.maxConnections less postgres.reservedConnections. Fails naming them.
*/}}
{{- define "property-api.connectionBudget" -}}
{{- $total := int .Values.postgres.migrationConnections -}}
{{- $parts := list (printf "migrations %d" $total) -}}
{{- range $name, $component := .Values.components -}}
{{- if $component.enabled -}}
{{- $c := fromYaml (include "property-api.component" (dict "root" $ "component" $component)) -}}
{{- $pods := int (ternary $c.autoscaling.maxReplicas $c.replicas (and $c.autoscaling $c.autoscaling.enabled | default false)) -}}
{{- $perPod := add (int ($c.database.pool | default 0)) (int ($c.database.workerPool | default 0)) -}}
{{- if gt (int $perPod) 0 -}}
{{- $n := mul (add $pods 1) $perPod -}}
{{- $total = add $total $n -}}
{{- $parts = append $parts (printf "%s (%d+1 pods x %d) %d" $name $pods (int $perPod) (int $n)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $budget := sub (int .Values.postgres.maxConnections) (int .Values.postgres.reservedConnections) -}}
{{- if gt (int $total) (int $budget) -}}
{{- fail (printf "PostgreSQL connection budget exceeded: %s = %d connections, but postgres.maxConnections %d less postgres.reservedConnections %d leaves %d. Lower maxReplicas or the components' database.pool/workerPool, raise postgres.maxConnections to what your server allows, or put PgBouncer in front (charts/README.md)." (join ", " $parts) (int $total) (int .Values.postgres.maxConnections) (int .Values.postgres.reservedConnections) (int $budget)) -}}
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
{{- printf "http://%s-collector.%s.svc:%d" (include "property-api.fullname" .) .Release.Namespace (int .Values.collector.ports.otlpHttp) -}}
{{- else -}}
{{- .Values.telemetry.otlpEndpoint -}}
{{- end -}}
{{- end -}}

{{/* The components that run this release's code (every process that talks to PostgreSQL, Redis or the collector), as
a YAML flow list for NetworkPolicy matchExpressions. A new component goes here, or it misses its policies. */}}
{{- define "property-api.processComponents" -}}
[lookup, autocomplete, account-billing, usage-worker, plans, migrate, rekey]
{{- end -}}
