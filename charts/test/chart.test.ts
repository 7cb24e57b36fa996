// The Helm chart, checked offline: helm lint and helm template for the default values and every ci/*.yaml, every
// rendered object validated against the Kubernetes API schemas, the security properties asserted, and bad values
// refused by values.schema.json.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parse as parsePostgresUrl } from 'pg-connection-string';
import {
  CHART,
  findHelm,
  helm,
  helmTemplate,
  KUBE_VERSION,
  parseStrict,
  render,
  renderText,
  type K8sObject,
} from './helm.js';
import { schemaProblems } from './kube-schemas.js';

const bin = findHelm();
if (!bin && process.env.CI)
  throw new Error('helm is not installed: .ci/run installs it with go install helm.sh/helm/v3/cmd/helm@v3.22.0');
if (!bin) console.log('[charts] SKIP: helm not found (go install helm.sh/helm/v3/cmd/helm@v3.22.0, or set HELM)');

const valueSets: [string, string | undefined][] = [
  ['default values', undefined],
  ...readdirSync(join(CHART, 'ci'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f): [string, string] => [`ci/${f}`, join(CHART, 'ci', f)]),
];

const SECRET_ENV = new Set([
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'GATEWAY_HMAC_KEY',
  'ADMIN_TOKEN',
  'MARKETPLACE_PROXY_SECRET',
  'TYPESENSE_API_KEY',
]);

type PodOwner = K8sObject & { spec: { template: { spec: any } } };
const podOwners = (objs: K8sObject[]) =>
  objs.filter((o): o is PodOwner => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind));
const ofKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);

/** The pattern of a DATABASE_READ_URL built in the pod from DATABASE_URL (CloudNativePG's uri, another host). */
const READ_URL_FROM_DATABASE_URL = /^\$\(DATABASE_URL\)\?host=[a-z0-9][-a-z0-9.]*$/;

/** A container's env as name -> value, or the valueFrom when there is no value. */
const envOf = (container: { env?: { name: string; value?: string; valueFrom?: unknown }[] }) =>
  Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom])) as Record<string, any>;
const deploymentOf = (objs: K8sObject[], component: string) =>
  ofKind(objs, 'Deployment').find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === component)!;

/** The namespace render() installs the release into. */
const RELEASE_NAMESPACE = 'property-api';
type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};
type Peer = { podSelector?: Selector; namespaceSelector?: Selector; ipBlock?: unknown };
/** A label selector as Kubernetes evaluates it ({} selects everything). */
function selects(sel: Selector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = e.key in labels;
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(labels[e.key]!)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(labels[e.key]!)
          : e.operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}
/**
 * Whether an ingress rule's `from` list admits a pod, as Kubernetes reads it: the list's peers are ORed; one peer's
 * namespaceSelector and podSelector are ANDed; a podSelector alone selects in the policy's own namespace, a
 * namespaceSelector alone every pod of the namespaces it selects. Namespaces carry their name as the label
 * kubernetes.io/metadata.name.
 */
function admits(from: Peer[], pod: { namespace: string; labels: Record<string, string> }): boolean {
  const nsLabels = { 'kubernetes.io/metadata.name': pod.namespace };
  return from.some((peer) => {
    if (peer.ipBlock) return false;
    const inNamespace = peer.namespaceSelector
      ? selects(peer.namespaceSelector, nsLabels)
      : pod.namespace === RELEASE_NAMESPACE;
    return inNamespace && selects(peer.podSelector ?? {}, pod.labels);
  });
}

describe.skipIf(!bin)('charts/property-api', () => {
  it('keeps files/kong.yml identical to gateway/kong/kong.yml', () => {
    const root = join(CHART, '..', '..');
    expect(
      readFileSync(join(CHART, 'files', 'kong.yml'), 'utf8'),
      'copy gateway/kong/kong.yml to charts/property-api/files/',
    ).toBe(readFileSync(join(root, 'gateway', 'kong', 'kong.yml'), 'utf8'));
  });

  describe.each(valueSets)('%s', (_name, values) => {
    const rendered = bin ? parseStrict(renderText(bin, values)) : { objects: [], errors: [] };
    const objs = rendered.objects;

    it('renders YAML that a strict parser reads: no duplicate key, no syntax error, in any document', () => {
      expect(rendered.errors).toEqual([]);
    });

    it('passes helm lint --strict', () => {
      const r = helm(bin!, [
        'lint',
        CHART,
        '--strict',
        '--kube-version',
        KUBE_VERSION,
        ...(values ? ['-f', values] : []),
      ]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    });

    it(`renders objects valid against the Kubernetes API schemas`, () => {
      expect(objs.length).toBeGreaterThan(10);
      expect(objs.map(schemaProblems).filter(Boolean)).toEqual([]);
    });

    it('renders every component, a migration hook, a rekey Job, and the Kong config with this release’s service addresses', () => {
      const deployments = ofKind(objs, 'Deployment').map((d) => d.metadata.labels?.['app.kubernetes.io/component']);
      expect(deployments.sort()).toEqual([
        'account-billing',
        'autocomplete',
        'lookup',
        'plans',
        'usage-worker',
        'webhooks-worker',
      ]);
      const worker = ofKind(objs, 'Deployment').find((d) => d.metadata.name.endsWith('-usage-worker'))!;
      expect(worker.spec.template.spec.containers[0].args).toEqual(['dist/billing-worker.js']);
      const jobs = ofKind(objs, 'Job');
      const job = jobs.find((j) => j.metadata.labels?.['app.kubernetes.io/component'] === 'migrate')!;
      // With a CloudNativePG Cluster in the release, the first install's migrations wait for it (post-install).
      const cnpg = ofKind(objs, 'Cluster').length > 0;
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe(
        cnpg ? 'post-install,pre-upgrade' : 'pre-install,pre-upgrade',
      );
      expect(job.spec.template.spec.containers[0].args).toEqual(['dist/migrate.js']);
      // The address-key rekey: beside the new pods, not a hook, without the hook's deadline, one Job per revision.
      const rekey = jobs.find((j) => j.metadata.labels?.['app.kubernetes.io/component'] === 'rekey')!;
      expect(rekey.metadata.annotations?.['helm.sh/hook']).toBeUndefined();
      expect(rekey.metadata.name).toBe('pra-property-api-rekey-1');
      expect(rekey.spec.activeDeadlineSeconds).toBeUndefined();
      expect(rekey.spec.template.spec.containers[0].args).toEqual(['dist/ingest.js', 'rekey']);
      const egress = ofKind(objs, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('-egress'))!;
      expect(JSON.stringify(egress.spec.podSelector)).toContain('"rekey"');
      const kong = ofKind(objs, 'ConfigMap').find((c) => c.metadata.name.endsWith('-kong-config'))!;
      expect(kong.data['kong.yml']).toContain('url: http://pra-property-api-lookup.property-api.svc:8081');
      expect(kong.data['kong.yml']).not.toMatch(/url: http:\/\/lookup:/);
    });

    it('runs nothing as root, nothing privileged, everything with resources and a read-only root', () => {
      for (const o of podOwners(objs)) {
        const pod = o.spec.template.spec;
        expect(pod.securityContext?.runAsNonRoot, `${o.kind} ${o.metadata.name}`).toBe(true);
        expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
        expect(pod.hostNetwork ?? false).toBe(false);
        for (const c of pod.containers) {
          const where = `${o.kind} ${o.metadata.name} container ${c.name}`;
          expect(c.securityContext?.allowPrivilegeEscalation, where).toBe(false);
          expect(c.securityContext?.privileged ?? false, where).toBe(false);
          expect(c.securityContext?.readOnlyRootFilesystem, where).toBe(true);
          expect(c.securityContext?.capabilities?.drop, where).toContain('ALL');
          expect(c.securityContext?.runAsUser ?? pod.securityContext.runAsUser, where).toBeGreaterThan(0);
          for (const r of ['requests', 'limits'])
            for (const k of ['cpu', 'memory']) expect(c.resources?.[r]?.[k], `${where} ${r}.${k}`).toBeTruthy();
          if (o.kind !== 'Job') {
            expect(c.livenessProbe, `${where} liveness`).toBeTruthy();
            expect(c.readinessProbe, `${where} readiness`).toBeTruthy();
          }
        }
      }
    });

    it('lets only the gateway reach the service ports, and the services reach only their stores', () => {
      const policies = ofKind(objs, 'NetworkPolicy');
      const deny = policies.find((p) => p.metadata.name.endsWith('-default-deny'))!;
      expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(deny.spec.ingress ?? []).toEqual([]);
      expect(deny.spec.egress ?? []).toEqual([]);
      for (const d of ofKind(objs, 'Deployment')) {
        const component = d.metadata.labels!['app.kubernetes.io/component']!;
        const ingress = policies.find((p) => p.metadata.name.endsWith(`-${component}-ingress`));
        expect(ingress, `ingress policy of ${component}`).toBeTruthy();
        const ports: { name: string; containerPort: number }[] = d.spec.template.spec.containers[0].ports;
        const http = ports.find((p) => p.name === 'http');
        for (const rule of ingress!.spec.ingress as { from: any[]; ports: { port: number }[] }[]) {
          const rulePorts = rule.ports.map((p) => p.port);
          if (http && rulePorts.includes(http.containerPort)) {
            expect(rule.from).toHaveLength(1);
            expect(rule.from[0].podSelector.matchLabels['app.kubernetes.io/name']).toBe('kong');
          }
          expect(rule.from.length, `${component}: no rule open to everyone`).toBeGreaterThan(0);
        }
      }
      const egress = policies.find((p) => p.metadata.name.endsWith('-egress'))!;
      const allowed = new Set(
        (egress.spec.egress as { ports: { port: number }[] }[]).flatMap((r) => r.ports.map((p) => p.port)),
      );
      // Never the Redis Cluster bus (16379): that is between the Redis nodes.
      for (const port of allowed) expect([53, 5432, 6379, 4317, 4318, 8108]).toContain(port);
      for (const rule of egress.spec.egress)
        expect(rule.to.length, 'no egress rule open to everywhere').toBeGreaterThan(0);
    });

    it('admits to the service ports only pods with the gateway’s labels in the gateway’s namespace', () => {
      const given = values ? parseYaml(readFileSync(values, 'utf8'))?.networkPolicy?.gateway?.namespace : undefined;
      const gatewayNamespace: string = given || RELEASE_NAMESPACE;
      const kong = { 'app.kubernetes.io/name': 'kong' };
      const policies = ofKind(objs, 'NetworkPolicy');
      let checked = 0;
      for (const d of ofKind(objs, 'Deployment')) {
        const component = d.metadata.labels!['app.kubernetes.io/component']!;
        const http = (d.spec.template.spec.containers[0].ports ?? []).find((p: { name: string }) => p.name === 'http');
        if (!http) continue;
        const ingress = policies.find((p) => p.metadata.name.endsWith(`-${component}-ingress`))!;
        const rule = (ingress.spec.ingress as { from: Peer[]; ports: { port: number }[] }[]).find((r) =>
          r.ports.some((p) => p.port === http.containerPort),
        )!;
        const where = `${component} port ${http.containerPort}`;
        expect(admits(rule.from, { namespace: gatewayNamespace, labels: kong }), where).toBe(true);
        expect(
          admits(rule.from, { namespace: 'another-tenant', labels: kong }),
          `${where}: Kong's labels elsewhere`,
        ).toBe(false);
        expect(admits(rule.from, { namespace: gatewayNamespace, labels: { app: 'other' } }), where).toBe(false);
        if (gatewayNamespace !== RELEASE_NAMESPACE)
          expect(admits(rule.from, { namespace: RELEASE_NAMESPACE, labels: kong }), where).toBe(false);
        checked++;
      }
      expect(checked).toBeGreaterThan(2);
    });

    it('takes secrets by reference only: no Secret object, no secret value', () => {
      expect(ofKind(objs, 'Secret')).toEqual([]);
      for (const o of podOwners(objs)) {
        for (const c of [...o.spec.template.spec.containers, ...(o.spec.template.spec.initContainers ?? [])]) {
          const names: string[] = (c.env ?? []).map((e: { name: string }) => e.name);
          for (const e of c.env ?? []) {
            if (!SECRET_ENV.has(e.name)) continue;
            const where = `${o.metadata.name} ${e.name}`;
            if (e.name === 'DATABASE_READ_URL' && e.value !== undefined) {
              // Built in the pod from DATABASE_URL (a Secret, defined before it), with no credential of its own.
              expect(e.value, where).toMatch(READ_URL_FROM_DATABASE_URL);
              expect(names.indexOf('DATABASE_URL'), where).toBeGreaterThanOrEqual(0);
              expect(names.indexOf('DATABASE_URL'), where).toBeLessThan(names.indexOf('DATABASE_READ_URL'));
              continue;
            }
            expect(e.valueFrom?.secretKeyRef, where).toBeTruthy();
          }
        }
      }
    });

    it('gives REDIS_CLUSTER_NODES to every process with REDIS_URL, and the read URL to the readers only', () => {
      const given = values ? parseYaml(readFileSync(values, 'utf8')) : {};
      const seeds: string[] = given?.redis?.clusterNodes ?? [];
      const readers = ['lookup', 'autocomplete', 'account-billing'];
      const hasReadUrl = given?.secrets?.databaseReadUrl?.existingSecret || ofKind(objs, 'Cluster').length > 0;
      for (const o of podOwners(objs)) {
        for (const c of o.spec.template.spec.containers) {
          const env = envOf(c);
          const component = o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
          if (env.REDIS_URL) expect(env.REDIS_CLUSTER_NODES, o.metadata.name).toBe(seeds.join(',') || undefined);
          else expect(env.REDIS_CLUSTER_NODES, o.metadata.name).toBeUndefined();
          if (hasReadUrl && readers.includes(component)) expect(env.DATABASE_READ_URL, o.metadata.name).toBeTruthy();
          else expect(env.DATABASE_READ_URL, o.metadata.name).toBeUndefined();
        }
      }
    });
  });

  it('production values: Typesense as a 3-node StatefulSet peering by stable DNS names, traces to the collector', () => {
    const objs = render(bin!, join(CHART, 'ci', 'production-values.yaml'));
    const sts = ofKind(objs, 'StatefulSet')[0]!;
    expect(sts.spec.replicas).toBe(3);
    expect(sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe('20Gi');
    const headless = ofKind(objs, 'Service').find((s) => s.spec.clusterIP === 'None')!;
    expect(sts.spec.serviceName).toBe(headless.metadata.name);
    const nodes = ofKind(objs, 'ConfigMap')
      .find((c) => c.metadata.name.endsWith('-typesense-nodes'))!
      .data.nodes.split(',');
    expect(nodes).toEqual(
      [0, 1, 2].map(
        (i) =>
          `pra-property-api-typesense-${i}.pra-property-api-typesense-headless.property-api.svc.cluster.local:8107:8108`,
      ),
    );
    const autocomplete = ofKind(objs, 'Deployment').find((d) => d.metadata.name.endsWith('-autocomplete'))!;
    const env = Object.fromEntries(
      autocomplete.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value ?? e.valueFrom]),
    );
    expect(env).toMatchObject({
      SEARCH_BACKEND: 'typesense',
      OTEL_SERVICE_NAME: 'autocomplete',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
    });
    const kong = ofKind(objs, 'ConfigMap').find((c) => c.metadata.name.endsWith('-kong-config'))!;
    expect(kong.data['kong.yml']).toContain('traces_endpoint: http://otel-collector.observability:4318/v1/traces');
    expect(
      ofKind(objs, 'HorizontalPodAutoscaler')
        .map((h) => h.spec.scaleTargetRef.name.replace('pra-property-api-', ''))
        .sort(),
    ).toEqual(['autocomplete', 'lookup', 'usage-worker']);
  });

  describe('10,000 lookups a second (ci/production-10k-values.yaml)', () => {
    const file = join(CHART, 'ci', 'production-10k-values.yaml');
    const given = parseYaml(readFileSync(file, 'utf8'));
    const objs = bin ? render(bin, file) : [];
    const cluster = () => ofKind(objs, 'Cluster')[0]!;

    it('runs a CloudNativePG Cluster of a primary and 3 replicas, with max_connections from the budget', () => {
      expect(ofKind(objs, 'Cluster')).toHaveLength(1);
      expect(cluster().apiVersion).toBe('postgresql.cnpg.io/v1');
      expect(cluster().metadata.name).toBe('pra-property-api-db');
      expect(cluster().spec).toMatchObject({
        instances: 4,
        enableSuperuserAccess: false,
        bootstrap: { initdb: { database: 'property_records', owner: 'property_api' } },
        postgresql: { parameters: { max_connections: '250', shared_buffers: '16GB' } },
        storage: { size: '500Gi' },
        walStorage: { size: '50Gi' },
        affinity: { enablePodAntiAffinity: true, podAntiAffinityType: 'required' },
        monitoring: { enablePodMonitor: true },
      });
    });

    it("wires the Cluster's -rw service to DATABASE_URL and its -ro service to DATABASE_READ_URL, by reference", () => {
      for (const component of ['lookup', 'autocomplete', 'account-billing', 'usage-worker']) {
        const env = envOf(deploymentOf(objs, component).spec.template.spec.containers[0]);
        expect(env.DATABASE_URL, component).toEqual({ secretKeyRef: { name: 'pra-property-api-db-app', key: 'uri' } });
      }
      const lookup = envOf(deploymentOf(objs, 'lookup').spec.template.spec.containers[0]);
      expect(lookup.DATABASE_READ_URL).toBe('$(DATABASE_URL)?host=pra-property-api-db-ro.property-api');
      // What the pod gets: Kubernetes expands $(DATABASE_URL) to the app Secret's uri, which CloudNativePG builds as
      // postgresql://<user>:<password, URL-escaped>@<cluster>-rw.<namespace>:5432/<database> (pkg/specs/secrets.go).
      // node-postgres parses it with pg-connection-string, whose host parameter wins over the URL's host.
      const uri = `postgresql://property_api:${encodeURIComponent('p@ss/w:rd?&=')}@pra-property-api-db-rw.property-api:5432/property_records`;
      const read = parsePostgresUrl(lookup.DATABASE_READ_URL.replace('$(DATABASE_URL)', uri));
      expect(read).toMatchObject({
        host: 'pra-property-api-db-ro.property-api',
        port: '5432',
        user: 'property_api',
        password: 'p@ss/w:rd?&=',
        database: 'property_records',
      });
      expect(parsePostgresUrl(uri).host).toBe('pra-property-api-db-rw.property-api');
      const worker = envOf(deploymentOf(objs, 'usage-worker').spec.template.spec.containers[0]);
      expect(worker.DATABASE_READ_URL).toBeUndefined();
    });

    it('runs the first install’s migrations after the Cluster exists, once its primary accepts connections', () => {
      const job = ofKind(objs, 'Job').find((j) => j.metadata.labels?.['app.kubernetes.io/component'] === 'migrate')!;
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('post-install,pre-upgrade');
      const wait = job.spec.template.spec.initContainers[0];
      expect(wait.command.at(-1)).toBe('pra-property-api-db-rw.property-api');
      expect(wait.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true });
      expect(envOf(job.spec.template.spec.containers[0]).DATABASE_URL).toEqual({
        secretKeyRef: { name: 'pra-property-api-db-app', key: 'uri' },
      });
    });

    it('lets the processes reach the Redis Cluster nodes and the Cluster instances, and nothing else there', () => {
      const egress = ofKind(objs, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('-egress'))!;
      const rules = egress.spec.egress as { to: Peer[]; ports: { port: number }[] }[];
      const reaches = (pod: { namespace: string; labels: Record<string, string> }, port: number) =>
        rules.some((r) => r.ports.some((p) => p.port === port) && admits(r.to, pod));
      const redisNode = { namespace: 'redis', labels: { 'app.kubernetes.io/name': 'redis-cluster' } };
      for (const seed of given.redis.clusterNodes as string[])
        expect(reaches(redisNode, Number(seed.split(':')[1]))).toBe(true);
      expect(reaches(redisNode, 16379), 'the cluster bus').toBe(false);
      const instance = { namespace: RELEASE_NAMESPACE, labels: { 'cnpg.io/cluster': 'pra-property-api-db' } };
      expect(reaches(instance, 5432)).toBe(true);
      expect(reaches({ namespace: RELEASE_NAMESPACE, labels: { 'cnpg.io/cluster': 'another-db' } }, 5432)).toBe(false);
    });

    it("admits to the instances this release's processes, each other and the operator only", () => {
      const policy = ofKind(objs, 'NetworkPolicy').find((p) => p.metadata.name === 'pra-property-api-db-instances')!;
      expect(policy.spec.podSelector).toEqual({ matchLabels: { 'cnpg.io/cluster': 'pra-property-api-db' } });
      const rules = policy.spec.ingress as { from: Peer[]; ports: { port: number }[] }[];
      const admitted = (pod: { namespace: string; labels: Record<string, string> }, port: number) =>
        rules.some((r) => r.ports.some((p) => p.port === port) && admits(r.from, pod));
      const ours = (component: string) => ({
        namespace: RELEASE_NAMESPACE,
        labels: { 'app.kubernetes.io/instance': 'pra', 'app.kubernetes.io/component': component },
      });
      for (const c of ['lookup', 'account-billing', 'usage-worker', 'migrate'])
        expect(admitted(ours(c), 5432), c).toBe(true);
      expect(
        admitted({ namespace: RELEASE_NAMESPACE, labels: { 'cnpg.io/cluster': 'pra-property-api-db' } }, 5432),
      ).toBe(true);
      const operator = { namespace: 'cnpg-system', labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } };
      expect(admitted(operator, 8000)).toBe(true);
      expect(admitted({ namespace: RELEASE_NAMESPACE, labels: { app: 'anything' } }, 5432)).toBe(false);
      expect(admitted({ ...ours('lookup'), namespace: 'another-tenant' }, 5432)).toBe(false);
      expect(admitted(ours('lookup'), 8000)).toBe(false);
    });

    it('scales lookups 10-16 and runs Typesense as 3 nodes on 3 Kubernetes nodes', () => {
      const hpa = ofKind(objs, 'HorizontalPodAutoscaler').find((h) => h.metadata.name.endsWith('-lookup'))!;
      expect(hpa.spec).toMatchObject({ minReplicas: 10, maxReplicas: 16 });
      expect(hpa.spec.metrics[0].resource.target.averageUtilization).toBe(60);
      expect(deploymentOf(objs, 'lookup').spec.template.spec.containers[0].resources.requests.cpu).toBe('1');
      const sts = ofKind(objs, 'StatefulSet')[0]!;
      expect(sts.spec.replicas).toBe(3);
      const anti = sts.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
      expect(anti[0].topologyKey).toBe('kubernetes.io/hostname');
      expect(anti[0].labelSelector.matchLabels['app.kubernetes.io/component']).toBe('typesense');
    });

    it('fits its connection budget with the numbers charts/README.md gives: primary 136, replica 47, promoted 183', () => {
      // 183 on a promoted replica is the largest: max_connections 203 (less 20 reserved) is the least that renders.
      expect(helmTemplate(bin!, ['-f', file, '--set', 'postgres.maxConnections=203']).status).toBe(0);
      const r = helmTemplate(bin!, ['-f', file, '--set', 'postgres.maxConnections=202']);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(
        /exceeded on a promoted replica: .*the primary's 136 \(migrations 2, account-billing \(3\+1 pods x 5\) 20, autocomplete \(8\+1 pods x 3\) 27, lookup \(16\+1 pods x 4\) 68, usage-worker \(4\+1 pods x 2\) 10, webhooks-worker \(2\+1 pods x 3\) 9\) plus a replica's 47 \(spread over 2 of 3 replicas, one down\) = 183/,
      );
    });

    it("matches charts/kong-values-10k.yaml: the gateway plugin uses the services' Redis Cluster and prefix", () => {
      const kong = parseYaml(readFileSync(join(CHART, '..', 'kong-values-10k.yaml'), 'utf8'));
      const lookup = envOf(deploymentOf(objs, 'lookup').spec.template.spec.containers[0]);
      expect(kong.customEnv.REDIS_CLUSTER_NODES).toBe(lookup.REDIS_CLUSTER_NODES);
      expect(kong.customEnv.REDIS_PREFIX).toBe(lookup.REDIS_PREFIX);
      expect(kong.autoscaling).toMatchObject({ enabled: true, minReplicas: 6 });
    });
  });

  describe('the connection budget, per PostgreSQL node', () => {
    const manyLookups = ['--set', 'defaults.autoscaling.maxReplicas=20'];

    it('without a read URL, counts every pool on the primary', () => {
      const r = helmTemplate(bin!, manyLookups);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(
        /PostgreSQL connection budget exceeded on the primary: .*lookup \(20\+1 pods x 4\) 84.* = 215 connections, but postgres.maxConnections 100 less postgres.reservedConnections 10 leaves 90.*PgBouncer/,
      );
      expect(helmTemplate(bin!, [...manyLookups, '--set', 'postgres.maxConnections=300']).status).toBe(0);
    });

    it('with a read URL, counts the readers’ request pools once more on the replicas, and checks each replica', () => {
      const readUrl = [
        ...manyLookups,
        '--set',
        'postgres.maxConnections=300',
        '--set',
        'secrets.databaseReadUrl.existingSecret=property-api-database-read',
      ];
      // The primary keeps every pool (215, within 290); one replica of max_connections 100 takes every read pool:
      // account-billing 6 + autocomplete 42 + lookup 84 = 132 > 90.
      const one = helmTemplate(bin!, [...readUrl, '--set', 'postgres.read.maxConnections=100']);
      expect(one.status).not.toBe(0);
      expect(one.stderr).toMatch(
        /exceeded on a replica: account-billing \(2\+1 pods x 2\) 6, autocomplete \(20\+1 pods x 2\) 42, lookup \(20\+1 pods x 4\) 84 = 132 read connections, all on the one replica: 132 a replica, but postgres.read.maxConnections 100 less postgres.reservedConnections 10 leaves 90/,
      );
      // Three replicas, one of them down: 132 over 2 = 66 each, within 90.
      const three = ['--set', 'postgres.read.replicas=3', '--set', 'postgres.read.maxConnections=100'];
      const objs = render(bin!, undefined, [...readUrl, ...three]);
      expect(envOf(deploymentOf(objs, 'lookup').spec.template.spec.containers[0]).DATABASE_READ_URL).toEqual({
        secretKeyRef: { name: 'property-api-database-read', key: 'url' },
      });
      expect(objs.map(schemaProblems).filter(Boolean)).toEqual([]);
      // 66 + 10 reserved needs 76.
      const r = helmTemplate(bin!, [
        ...readUrl,
        '--set',
        'postgres.read.replicas=3',
        '--set',
        'postgres.read.maxConnections=75',
      ]);
      expect(r.stderr).toMatch(
        /66 a replica, but postgres.read.maxConnections 75 less postgres.reservedConnections 10 leaves 65/,
      );
      // The replicas' own egress rule (networkPolicy.egress.postgresRead).
      const egress = ofKind(objs, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('-egress'))!;
      expect(
        (egress.spec.egress as { ports: { port: number }[] }[]).filter((e) => e.ports[0]!.port === 5432),
      ).toHaveLength(2);
      // The primary's count does not change with a read URL: its request pools stay for writes and the fallback.
      expect(helmTemplate(bin!, [...readUrl, '--set', 'postgres.maxConnections=224']).stderr).toMatch(
        /on the primary: .* = 215 connections/,
      );
    });

    it('fails charts/test/values/over-budget-cnpg-values.yaml: a promoted replica would carry 89 + 48', () => {
      const r = helmTemplate(bin!, ['-f', join(CHART, '..', 'test', 'values', 'over-budget-cnpg-values.yaml')]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(
        /exceeded on a promoted replica: .*the primary's 89 \(.*lookup \(6\+1 pods x 4\) 28.*\) plus a replica's 48 \(spread over 1 of 2 replicas, one down\) = 137, but postgres.maxConnections 100 less postgres.reservedConnections 10 leaves 90/,
      );
      // With a fourth instance the replicas share it: 48 over 2 = 24, and 89 + 24 = 113 still needs 123.
      const four = [
        '-f',
        join(CHART, '..', 'test', 'values', 'over-budget-cnpg-values.yaml'),
        '--set',
        'cloudnativepg.instances=4',
      ];
      expect(helmTemplate(bin!, [...four, '--set', 'postgres.maxConnections=122']).stderr).toMatch(/= 113,/);
      expect(helmTemplate(bin!, [...four, '--set', 'postgres.maxConnections=123']).status).toBe(0);
    });

    it('refuses a read URL of its own beside CloudNativePG (which has its -ro service)', () => {
      const r = helmTemplate(bin!, [
        '--set',
        'cloudnativepg.enabled=true',
        '--set',
        'secrets.databaseReadUrl.existingSecret=property-api-database-read',
      ]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/cloudnativepg.enabled and secrets.databaseReadUrl .* are both set/);
    });

    it('puts every read on the primary with a single-instance Cluster (no replica, no read URL)', () => {
      const objs = render(bin!, undefined, [
        '--set',
        'cloudnativepg.enabled=true',
        '--set',
        'cloudnativepg.instances=1',
      ]);
      expect(envOf(deploymentOf(objs, 'lookup').spec.template.spec.containers[0]).DATABASE_READ_URL).toBeUndefined();
      expect(ofKind(objs, 'Cluster')[0]!.spec.instances).toBe(1);
      expect(objs.map(schemaProblems).filter(Boolean)).toEqual([]);
    });
  });

  it("gives each pod its pools and keeps the default release inside PostgreSQL's default 100 connections", () => {
    const objs = render(bin!);
    const pools = Object.fromEntries(
      ofKind(objs, 'Deployment').map((d) => {
        const env = Object.fromEntries(d.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value]));
        return [d.metadata.labels!['app.kubernetes.io/component'], [env.DB_POOL_SIZE, env.DB_WORKER_POOL_SIZE]];
      }),
    );
    expect(pools).toEqual({
      lookup: ['4', undefined],
      autocomplete: ['2', '1'],
      'account-billing': ['2', '3'],
      'usage-worker': [undefined, '2'],
      'webhooks-worker': [undefined, '3'],
      plans: [undefined, undefined],
    });
  });

  it("kong-values.yaml's KEY_LOOKUP_URL names account-billing's Service of the documented install, fully qualified", () => {
    // charts/README.md installs the release "pra" in RELEASE_NAMESPACE, as render() does.
    const values = parseYaml(readFileSync(join(CHART, '..', 'kong-values.yaml'), 'utf8')) as {
      customEnv: Record<string, unknown>;
    };
    const url = new URL(String(values.customEnv.KEY_LOOKUP_URL));
    const objs = render(bin!);
    const service = ofKind(objs, 'Service').find(
      (s) => s.metadata.labels?.['app.kubernetes.io/component'] === 'account-billing',
    )!;
    const port = (service.spec.ports as { name: string; port: number }[]).find((p) => p.name === 'http')!.port;
    // A short name resolves only from the release's own namespace; Kong may run in another (production: kong).
    expect(url.host).toBe(`${service.metadata.name}.${RELEASE_NAMESPACE}.svc:${port}`);
    expect(url.protocol).toBe('http:');
    expect(url.pathname).toBe('/');
    // The same address the rendered Kong config routes account-billing to.
    const kong = ofKind(objs, 'ConfigMap').find((c) => c.metadata.name.endsWith('-kong-config'))!;
    expect(kong.data['kong.yml']).toContain(`url: http://${url.host}`);
  });

  it('admits the gateway from the namespace networkPolicy.gateway.namespace names', () => {
    const objs = render(bin!, undefined, ['--set', 'networkPolicy.gateway.namespace=edge']);
    const lookup = ofKind(objs, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('-lookup-ingress'))!;
    const from: Peer[] = lookup.spec.ingress[0].from;
    expect(from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'edge' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'kong' } },
      },
    ]);
    expect(admits(from, { namespace: 'edge', labels: { 'app.kubernetes.io/name': 'kong' } })).toBe(true);
    expect(admits(from, { namespace: RELEASE_NAMESPACE, labels: { 'app.kubernetes.io/name': 'kong' } })).toBe(false);
  });

  it.each([
    ['the old default, {}', '{}'],
    ['a selector of its own', '{"matchLabels":{"kubernetes.io/metadata.name":"edge"}}'],
  ])(
    'fails an upgrade whose values still set networkPolicy.gateway.namespaceSelector (%s), naming the replacement',
    (_what, selector) => {
      // As a values file written for the chart before networkPolicy.gateway.namespace carries it (helm upgrade -f).
      const dir = mkdtempSync(join(tmpdir(), 'pra-chart-'));
      const file = join(dir, 'old-values.yaml');
      writeFileSync(
        file,
        `networkPolicy:\n  gateway:\n    namespaceSelector: ${selector}\n    podSelector:\n      matchLabels:\n        app.kubernetes.io/name: kong\n`,
      );
      try {
        const r = helmTemplate(bin!, ['-f', file]);
        expect(r.status).not.toBe(0);
        expect(r.stderr).not.toMatch(/schema/);
        expect(r.stderr).toMatch(
          /networkPolicy\.gateway\.namespaceSelector was removed .*: set networkPolicy\.gateway\.namespace to the namespace Kong runs in .* and delete networkPolicy\.gateway\.namespaceSelector/,
        );
        // Also with the NetworkPolicies off: the key means nothing any more, whatever else the values say.
        const off = helmTemplate(bin!, ['-f', file, '--set', 'networkPolicy.enabled=false']);
        expect(off.status).not.toBe(0);
        expect(off.stderr).toMatch(/set networkPolicy\.gateway\.namespace/);
        // What charts/README.md tells a --reuse-values upgrade to add: the key set to null is gone, and it renders.
        const removed = render(bin!, file, ['--set', 'networkPolicy.gateway.namespaceSelector=null']);
        expect(ofKind(removed, 'NetworkPolicy').length).toBeGreaterThan(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.each([
    ['a replica count that is not a number', ['--set', 'defaults.replicas=two']],
    ['an unknown component setting', ['--set', 'components.lookup.prot=8081']],
    ['an unknown component', ['--set', 'components.billing.enabled=true']],
    ['a secret reference without a name', ['--set', 'secrets.databaseUrl.existingSecret=']],
    ['a Typesense cluster of 2 (no quorum)', ['--set', 'typesense.enabled=true', '--set', 'typesense.replicas=2']],
    ['a Redis Cluster seed without a port', ['--set', 'redis.clusterNodes={redis-0.redis}']],
    ['an unknown read mode', ['--set', 'components.lookup.database.reads=sometimes']],
    [
      'max_connections among the CloudNativePG parameters (postgres.maxConnections sets it)',
      ['--set', 'cloudnativepg.enabled=true', '--set-string', 'cloudnativepg.parameters.max_connections=500'],
    ],
    ['a CloudNativePG parameter that is not a string', ['--set', 'cloudnativepg.parameters.work_mem=64']],
    ['a gateway namespace that is not a namespace name', ['--set', 'networkPolicy.gateway.namespace=Not_A_Name']],
  ])('refuses %s at install time', (_what, args) => {
    const r = helmTemplate(bin!, [...args]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/values don't meet the specifications of the schema/);
  });
});
