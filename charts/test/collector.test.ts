// The chart's optional OpenTelemetry Collector (collector.enabled): off by default and nothing of it rendered; on, the
// upstream contrib image of the version observability/collector/builder-config.yaml builds, its config in a
// ConfigMap, a Service, NetworkPolicies that let exactly this release's processes reach it, and every process's
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at it. The rendered config is then given to the real collector built from
// that manifest (`pra-otelcol validate`), which refuses an unknown component or a bad setting.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { findCollector } from '@pra/platform/testing';
import { CHART, findHelm, helm, helmTemplate, KUBE_VERSION, render, type K8sObject } from './helm.js';
import { schemaProblems } from './kube-schemas.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MANIFEST = join(ROOT, 'observability', 'collector', 'builder-config.yaml');
const RELEASE_NAMESPACE = 'property-api';
const COLLECTOR = 'pra-property-api-collector';

const bin = findHelm();
if (!bin) console.log('[collector] SKIP: helm not found (go install helm.sh/helm/v3/cmd/helm@v3.22.0, or set HELM)');
const otelcol = findCollector();
if (!otelcol)
  console.log(
    '[collector] SKIP: pra-otelcol not built, the chart collector config is not validated by a real collector (observability/collector/build.sh)',
  );

const manifest = parseYaml(readFileSync(MANIFEST, 'utf8')) as {
  dist: { version: string };
  receivers: { gomod: string }[];
  processors: { gomod: string }[];
  exporters: { gomod: string }[];
  providers: { gomod: string }[];
};

const dir = mkdtempSync(join(tmpdir(), 'pra-chart-collector-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function valuesFile(text: string): string {
  const f = join(dir, `values-${files++}.yaml`);
  writeFileSync(f, text);
  return f;
}

const ofKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);
const collectorObjects = (objs: K8sObject[]) =>
  objs.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'collector');
const envOf = (d: K8sObject): Record<string, string | undefined> =>
  Object.fromEntries(
    d.spec.template.spec.containers[0].env.map((e: { name: string; value?: string }) => [e.name, e.value]),
  );
const collectorConfig = (objs: K8sObject[]) =>
  parseYaml(ofKind(objs, 'ConfigMap').find((c) => c.metadata.name === COLLECTOR)!.data['config.yaml']) as {
    receivers: Record<string, any>;
    processors: Record<string, any>;
    exporters: Record<string, any>;
    service: { pipelines: Record<string, { receivers: string[]; processors: string[]; exporters: string[] }> };
  };

const TEMPO = `collector:
  enabled: true
  exporters:
    otlp_grpc/tempo:
      endpoint: tempo-distributor.observability:4317
      tls: { insecure: true }
    debug: null
`;

describe('the collector manifest', () => {
  it('pins core and contrib components to one collector version, the one the chart deploys', () => {
    const version = `v${manifest.dist.version}`;
    const components = [...manifest.receivers, ...manifest.processors, ...manifest.exporters].map((m) => m.gomod);
    expect(components.length).toBeGreaterThan(3);
    for (const c of components) expect(c, c).toMatch(new RegExp(` ${version.replaceAll('.', '\\.')}$`));
    expect(components.some((c) => c.startsWith('github.com/open-telemetry/opentelemetry-collector-contrib/'))).toBe(
      true,
    );
    // The confmap providers are the stable (v1) modules released with it: all the same version.
    expect(new Set(manifest.providers.map((p) => p.gomod.split(' ')[1])).size).toBe(1);
    const values = parseYaml(readFileSync(join(CHART, 'values.yaml'), 'utf8'));
    expect(values.collector.image.tag).toBe(manifest.dist.version);
    expect(values.collector.image.repository).toBe('otel/opentelemetry-collector-contrib');
    const build = readFileSync(join(ROOT, 'observability', 'collector', 'build.sh'), 'utf8');
    expect(build).toContain(`BUILDER_VERSION=${version}\n`);
  });
});

describe.skipIf(!bin)('charts/property-api: the collector', () => {
  it('is off by default: nothing of it rendered, and no process exports anywhere', () => {
    const objs = render(bin!);
    expect(collectorObjects(objs)).toEqual([]);
    for (const d of ofKind(objs, 'Deployment')) expect(envOf(d).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('on: the contrib image, its config, a Service, and every process sending to it', () => {
    const objs = render(bin!, undefined, ['--set', 'collector.enabled=true']);
    expect(objs.map(schemaProblems).filter(Boolean)).toEqual([]);
    const mine = collectorObjects(objs).map((o) => `${o.kind} ${o.metadata.name}`);
    expect(mine.sort()).toEqual([
      `ConfigMap ${COLLECTOR}`,
      `Deployment ${COLLECTOR}`,
      `NetworkPolicy ${COLLECTOR}`,
      'NetworkPolicy pra-property-api-otlp-to-collector',
      `Service ${COLLECTOR}`,
    ]);
    const deployment = ofKind(objs, 'Deployment').find((d) => d.metadata.name === COLLECTOR)!;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.image).toBe(`otel/opentelemetry-collector-contrib:${manifest.dist.version}`);
    expect(container.args).toEqual(['--config=/conf/config.yaml']);
    expect(pod.volumes[0].configMap.name).toBe(COLLECTOR);
    expect(container.volumeMounts).toContainEqual({ name: 'config', mountPath: '/conf', readOnly: true });
    // As locked down as the services.
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
    });
    for (const r of ['requests', 'limits'])
      for (const k of ['cpu', 'memory']) expect(container.resources[r][k]).toBeTruthy();
    expect(container.readinessProbe).toBeTruthy();
    expect(container.livenessProbe).toBeTruthy();

    // The Service selects the pods and maps the OTLP ports onto the container's.
    const service = ofKind(objs, 'Service').find((s) => s.metadata.name === COLLECTOR)!;
    const labels = deployment.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(service.spec.selector)) expect(labels[k]).toBe(v);
    const containerPorts = Object.fromEntries(
      container.ports.map((p: { name: string; containerPort: number }) => [p.name, p.containerPort]),
    );
    expect(
      service.spec.ports.map((p: { port: number; targetPort: string }) => [p.port, containerPorts[p.targetPort]]),
    ).toEqual([
      [4317, 4317],
      [4318, 4318],
    ]);

    // Every process (and only the services: not the collector itself) sends OTLP/HTTP to that Service.
    const endpoint = `http://${COLLECTOR}.${RELEASE_NAMESPACE}.svc:4318`;
    const services = ofKind(objs, 'Deployment').filter((d) => d.metadata.name !== COLLECTOR);
    expect(services.map((d) => d.metadata.name.replace(/^.*-property-api-/, '')).sort()).toEqual([
      'account-billing',
      'autocomplete',
      'lookup',
      'plans',
      'usage-worker',
      'webhooks-worker',
    ]);
    for (const d of services)
      expect(envOf(d), d.metadata.name).toMatchObject({
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      });

    // OTLP in on both ports, memory-limited then batched, out to the debug exporter by default, traces and metrics.
    const config = collectorConfig(objs);
    expect(config.receivers.otlp.protocols).toEqual({
      grpc: { endpoint: '0.0.0.0:4317' },
      http: { endpoint: '0.0.0.0:4318' },
    });
    expect(Object.keys(config.exporters)).toEqual(['debug']);
    for (const p of ['traces', 'metrics'])
      expect(config.service.pipelines[p]).toEqual({
        receivers: ['otlp'],
        processors: ['memory_limiter', 'batch'],
        exporters: ['debug'],
      });
    // The memory limiter refuses data at a share of the container's limit, which the Go runtime also knows.
    expect(config.processors.memory_limiter).toMatchObject({ limit_percentage: 80, spike_limit_percentage: 20 });
    expect(container.env).toContainEqual({
      name: 'GOMEMLIMIT',
      valueFrom: { resourceFieldRef: { containerName: 'collector', resource: 'limits.memory' } },
    });
  });

  it('on, with NetworkPolicies: only this release’s processes reach its OTLP ports, and they may', () => {
    const objs = render(bin!, undefined, ['--set', 'collector.enabled=true']);
    const policies = ofKind(objs, 'NetworkPolicy');
    // The default-deny policy covers the collector's pods too (they carry the release's labels).
    const deny = policies.find((p) => p.metadata.name.endsWith('-default-deny'))!;
    const podLabels = ofKind(objs, 'Deployment').find((d) => d.metadata.name === COLLECTOR)!.spec.template.metadata
      .labels;
    for (const [k, v] of Object.entries(deny.spec.podSelector.matchLabels)) expect(podLabels[k]).toBe(v);

    const own = policies.find((p) => p.metadata.name === COLLECTOR)!;
    expect(own.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(own.spec.ingress).toHaveLength(2);
    expect(own.spec.ingress[0].ports.map((p: { port: number }) => p.port)).toEqual([4317, 4318]);
    // Kong's opentelemetry plugin: the gateway's pods, in the gateway's namespace (one peer, both selectors).
    expect(own.spec.ingress[1]).toEqual({
      from: [
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': RELEASE_NAMESPACE } },
          podSelector: { matchLabels: { 'app.kubernetes.io/name': 'kong' } },
        },
      ],
      ports: [{ port: 4318, protocol: 'TCP' }],
    });
    // ... and the Kong config the release renders sends Kong's spans to it.
    const kongYml = ofKind(objs, 'ConfigMap').find((c) => c.metadata.name === 'pra-property-api-kong-config')!.data[
      'kong.yml'
    ];
    expect(kongYml).toContain(`endpoint: http://${COLLECTOR}.${RELEASE_NAMESPACE}.svc:4318/v1/traces`);
    const from = own.spec.ingress[0].from;
    expect(from).toHaveLength(1);
    expect(from[0].namespaceSelector).toBeUndefined(); // this namespace only
    expect(from[0].podSelector.matchExpressions).toContainEqual({
      key: 'app.kubernetes.io/instance',
      operator: 'In',
      values: ['pra'],
    });
    // Out: DNS, and the OTLP destinations networkPolicy.egress.otlp names (where its exporters send).
    expect(
      own.spec.egress
        .flatMap((r: any) => r.ports.map((p: { port: number }) => p.port))
        .sort((a: number, b: number) => a - b),
    ).toEqual([53, 53, 4317, 4318]);

    const toCollector = policies.find((p) => p.metadata.name === 'pra-property-api-otlp-to-collector')!;
    expect(toCollector.spec.policyTypes).toEqual(['Egress']);
    const egressSelector = policies.find((p) => p.metadata.name === 'pra-property-api-egress')!.spec.podSelector;
    expect(toCollector.spec.podSelector).toEqual(egressSelector); // the same processes as the -egress policy
    expect(toCollector.spec.egress).toEqual([
      {
        to: [{ podSelector: { matchLabels: own.spec.podSelector.matchLabels } }],
        ports: [
          { port: 4317, protocol: 'TCP' },
          { port: 4318, protocol: 'TCP' },
        ],
      },
    ]);
  });

  it('sends to the exporters the operator names (Tempo over OTLP/gRPC here), and passes helm lint --strict', () => {
    const file = valuesFile(TEMPO);
    const lint = helm(bin!, ['lint', CHART, '--strict', '--kube-version', KUBE_VERSION, '-f', file]);
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
    const config = collectorConfig(render(bin!, file));
    expect(config.exporters).toEqual({
      'otlp_grpc/tempo': { endpoint: 'tempo-distributor.observability:4317', tls: { insecure: true } },
    });
    for (const p of ['traces', 'metrics']) expect(config.service.pipelines[p]!.exporters).toEqual(['otlp_grpc/tempo']);
    // A pipeline may name its own exporters.
    const split = collectorConfig(
      render(bin!, valuesFile(TEMPO.replace('debug: null', 'debug: { verbosity: detailed }')), [
        '--set',
        'collector.pipelines.metrics={debug}',
      ]),
    );
    expect(split.service.pipelines.traces!.exporters).toEqual(['debug', 'otlp_grpc/tempo']);
    expect(split.service.pipelines.metrics!.exporters).toEqual(['debug']);
  });

  it('fails naming the fix when both the collector and telemetry.otlpEndpoint are set', () => {
    const r = helmTemplate(bin!, [
      '--set',
      'collector.enabled=true',
      '--set',
      'telemetry.otlpEndpoint=http://otel-collector.observability:4318',
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/collector\.enabled and telemetry\.otlpEndpoint .* are both set/);
  });

  it.each([
    ['an unknown collector setting', ['--set', 'collector.replica=2']],
    ['a port that is not a port', ['--set', 'collector.ports.otlpHttp=0']],
    ['an exporter id that is not one', ['--set', 'collector.exporters.BAD.x=1']],
  ])('refuses %s at install time', (_what, args) => {
    const r = helmTemplate(bin!, [...args]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/values don't meet the specifications of the schema/);
  });
});

describe.skipIf(!bin || !otelcol)('the chart’s collector config, read by the real collector', () => {
  const validate = (config: string) => {
    const f = join(dir, `config-${files++}.yaml`);
    writeFileSync(f, config);
    const r = spawnSync(otelcol!, ['validate', `--config=${f}`], { encoding: 'utf8' });
    return { status: r.status, output: r.stdout + r.stderr };
  };
  const rendered = (valuesText?: string, extra: string[] = []) =>
    ofKind(render(bin!, valuesText ? valuesFile(valuesText) : undefined, extra), 'ConfigMap').find(
      (c) => c.metadata.name === COLLECTOR,
    )!.data['config.yaml'] as string;

  it(`is accepted by pra-otelcol ${manifest.dist.version}: the default (debug) and an operator's Tempo exporter`, () => {
    for (const config of [rendered(undefined, ['--set', 'collector.enabled=true']), rendered(TEMPO)]) {
      const r = validate(config);
      expect(r.status, `${r.output}\n${config}`).toBe(0);
    }
  });

  it('and the check has teeth: an exporter the collector lacks, or a bad setting, is refused', () => {
    const kafka = validate(rendered(TEMPO).replaceAll('otlp_grpc/tempo', 'kafka/tempo'));
    expect(kafka.status).not.toBe(0);
    expect(kafka.output).toMatch(/unknown type: "kafka"/);
    const typo = validate(
      rendered(undefined, ['--set', 'collector.enabled=true', '--set', 'collector.exporters.debug.verbosiy=basic']),
    );
    expect(typo.status).not.toBe(0);
    expect(typo.output).toMatch(/verbosiy/);
  });
});
