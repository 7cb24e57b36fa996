// The chart on a real Kubernetes API server (etcd and kube-apiserver built from their Go modules by
// charts/test/kube/build.sh; the harness in kube/api-server.ts). What the offline checks (chart.test.ts) cannot show:
// that the server admits and stores every object the chart renders, for every values set, with strict field
// validation (an unknown field fails); that the custom resources fit the CRDs of the upstream projects; that helm
// install, upgrade, rollback and uninstall do what charts/README.md says, hooks included; and that every name fits
// at the longest release name Helm allows. No kubelet runs here: no pod starts, and the migration Job is marked
// complete (or failed) through its status subresource, standing in for the node that would have run it.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART, findHelm, parseStrict, type K8sObject } from './helm.js';
import { schemaProblems } from './kube-schemas.js';
import {
  BUILD_SCRIPT,
  findKubeBinaries,
  KUBE_SERVER_VERSION,
  startKubeApiServer,
  type KubeApiServer,
  type KubeBinaries,
} from './kube/api-server.js';
import { id, kubeClient, type KubeClient, type KubeObject } from './kube/client.js';

const helmBin = findHelm();
const kubeBins = findKubeBinaries();
/** The CRDs build.sh leaves (PRA_KUBE_CRDS names another directory). */
const CRD_DIR =
  process.env.PRA_KUBE_CRDS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pra-kube', 'crds');
const CRD_FILES = [
  'postgresql.cnpg.io_clusters.yaml',
  'monitoring.coreos.com_prometheusrules.yaml',
  'monitoring.coreos.com_servicemonitors.yaml',
  'monitoring.coreos.com_podmonitors.yaml',
];
const missing = [
  ...(helmBin ? [] : ['helm']),
  ...('missing' in kubeBins ? kubeBins.missing : []),
  ...CRD_FILES.filter((f) => !existsSync(join(CRD_DIR, f))).map((f) => `${CRD_DIR}/${f}`),
];
if (missing.length > 0)
  console.log(
    `[kube] SKIP: the chart on a real API server: ${missing.join(', ')} missing (${BUILD_SCRIPT}; helm: go install helm.sh/helm/v3/cmd/helm@v3.22.0)`,
  );

const CI = join(CHART, 'ci');
const ALL_ON =
  'collector.enabled=true,telemetry.otlpEndpoint=,monitoring.prometheusRule.enabled=true,monitoring.dashboard.enabled=true';
/** Every values set in ci/, the defaults, and the production layout with every optional part on. */
const VALUE_SETS: { name: string; args: string[] }[] = [
  { name: 'default values', args: [] },
  ...readdirSync(CI)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ name: `ci/${f}`, args: ['-f', join(CI, f)] })),
  {
    name: 'ci/production-10k-values.yaml + collector, PrometheusRule, dashboard',
    args: ['-f', join(CI, 'production-10k-values.yaml'), '--set', ALL_ON],
  },
];
/** The longest release name Helm accepts. */
const LONGEST_RELEASE = `pra-${'x'.repeat(45)}-end`;

/** Every optional part on, so that every object the chart can render is named. */
const LONGEST_ARGS = ['-f', join(CI, 'production-10k-values.yaml'), '--set', ALL_ON];
/** `helm template` of the longest release name (helm alone: no server needed). */
function renderLongest(helmPath: string, namespace: string) {
  const r = spawnSync(
    helmPath,
    ['template', LONGEST_RELEASE, CHART, '-n', namespace, '--kube-version', KUBE_SERVER_VERSION, ...LONGEST_ARGS],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  if (r.status !== 0) throw new Error(`helm template ${LONGEST_RELEASE}: ${r.stderr}`);
  return parseStrict(r.stdout);
}

describe.skipIf(!helmBin)('the longest release name Helm allows (53 characters)', () => {
  it('keeps every object name within its limit, and every address names a rendered object', () => {
    const ns = 'long-name';
    const { objects, errors } = renderLongest(helmBin!, ns);
    expect(errors).toEqual([]);
    expect(LONGEST_RELEASE).toHaveLength(53);
    const kindName = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    for (const o of objects) {
      // A StatefulSet's pods carry controller-revision-hash <name>-<10 characters>; CloudNativePG refuses more than 50.
      const max = o.kind === 'StatefulSet' ? 52 : o.kind === 'Cluster' ? 50 : 63;
      expect(o.metadata.name.length, kindName(o)).toBeLessThanOrEqual(max);
    }
    const services = new Set(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
    const kong = objects.find((o) => o.kind === 'ConfigMap' && o.data?.['kong.yml'])!.data['kong.yml'] as string;
    const kongHosts = [...kong.matchAll(/url: http:\/\/([a-z0-9-]+)\.long-name\.svc:/g)].map((m) => m[1]!);
    expect(kongHosts.length).toBeGreaterThan(0);
    for (const h of kongHosts) expect(services, h).toContain(h);
    const envOf = (component: string, name: string) =>
      objects
        .find((o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === component)!
        .spec.template.spec.containers[0].env.find((e: { name: string }) => e.name === name);
    const otlp = new URL(envOf('lookup', 'OTEL_EXPORTER_OTLP_ENDPOINT').value as string).hostname;
    expect(services).toContain(otlp.split('.')[0]);
    const typesense = new URL(envOf('autocomplete', 'TYPESENSE_URL').value as string).hostname;
    expect(services).toContain(typesense);
    const sts = objects.find((o) => o.kind === 'StatefulSet')!;
    const peers = objects.find((o) => o.kind === 'ConfigMap' && o.data?.nodes)!.data.nodes as string;
    expect(peers.split(',')[0]).toMatch(
      new RegExp(`^${sts.metadata.name}-0\\.${sts.spec.serviceName}\\.long-name\\.svc\\.`),
    );
    expect(services).toContain(sts.spec.serviceName);
    const cluster = objects.find((o) => o.kind === 'Cluster')!.metadata.name;
    expect(envOf('lookup', 'DATABASE_URL').valueFrom.secretKeyRef.name).toBe(`${cluster}-app`);
  });
});

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing.length > 0)(`the chart on a real Kubernetes API server (${KUBE_SERVER_VERSION})`, () => {
  const bins = kubeBins as KubeBinaries;
  const helmPath = helmBin!;
  let server: KubeApiServer;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let kube: KubeClient;

  /** helm, asynchronously: a hook waits for the Job this process marks complete meanwhile. */
  const helm = (args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(helmPath, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        resolve({ status: err ? Number((err as { code?: number }).code ?? 1) || 1 : 0, stdout, stderr }),
      );
    });
  const template = async (release: string, namespace: string, args: string[]) => {
    const r = await helm(['template', release, CHART, '-n', namespace, '--kube-version', KUBE_SERVER_VERSION, ...args]);
    expect(r.status, r.stderr).toBe(0);
    const { objects, errors } = parseStrict(r.stdout);
    expect(errors).toEqual([]);
    return { text: r.stdout, objects };
  };
  const createNamespace = async (ns: string) => {
    const r = await kube.create(undefined, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }]);
    expect(r.errors).toEqual([]);
  };
  /** Creates with the server's strict field validation (a dry run: checked, nothing stored); errors as it words them. */
  const createStrict = (ns: string, objects: K8sObject[], dryRun = false) =>
    kube.create(ns, objects as KubeObject[], { dryRun });
  /** The kinds the chart renders (with a label of the release), as the server serves them. */
  const KINDS = [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'StatefulSet'],
    ['v1', 'Service'],
    ['v1', 'ConfigMap'],
    ['batch/v1', 'Job'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ['policy/v1', 'PodDisruptionBudget'],
    ['networking.k8s.io/v1', 'NetworkPolicy'],
    ['postgresql.cnpg.io/v1', 'Cluster'],
    ['monitoring.coreos.com/v1', 'PrometheusRule'],
  ] as const;
  /** Every object of the release on the server (by its instance label). */
  const onServer = async (ns: string, release: string) => {
    const selector = `app.kubernetes.io/instance=${release}`;
    const lists = await Promise.all(KINDS.map(([v, k]) => kube.list(ns, v, k, selector)));
    return lists.flat();
  };
  /** The objects of a release revision's stored manifest (hooks are not in it). */
  const manifest = async (release: string, ns: string, revision?: number) => {
    const r = await helm(['get', 'manifest', release, '-n', ns, ...(revision ? ['--revision', String(revision)] : [])]);
    expect(r.status, r.stderr).toBe(0);
    return parseStrict(r.stdout).objects;
  };
  const job = (ns: string, name: string) => server.api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${name}`);
  const waitFor = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await check();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(200);
    }
  };
  /**
   * What the node and the Job controller would write once the migration pod exited: the Job's status through its
   * status subresource. Complete needs SuccessCriteriaMet before it, Failed needs FailureTarget (the server checks).
   */
  const finishJob = async (ns: string, name: string, outcome: 'Complete' | 'Failed') => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const cond = (type: string) => ({
      type,
      status: 'True',
      lastProbeTime: now,
      lastTransitionTime: now,
      reason: outcome === 'Complete' ? 'CompletionsReached' : 'BackoffLimitExceeded',
      message: 'set by the test: no kubelet runs here',
    });
    const status =
      outcome === 'Complete'
        ? {
            startTime: now,
            completionTime: now,
            succeeded: 1,
            active: 0,
            ready: 0,
            conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
          }
        : { startTime: now, failed: 1, active: 0, ready: 0, conditions: [cond('FailureTarget'), cond('Failed')] };
    const r = await server.api(
      'PATCH',
      `/apis/batch/v1/namespaces/${ns}/jobs/${name}/status`,
      { status },
      'application/merge-patch+json',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  /**
   * helm install/upgrade of a chart whose migration Job is a hook: waits for the Job, records what exists beside it
   * then (a pre- hook runs before the release's objects change), finishes it as `outcome`, and returns helm's result.
   */
  const withHook = async (args: string[], ns: string, jobName: string, outcome: 'Complete' | 'Failed' = 'Complete') => {
    const run = helm(args);
    let exited: Run | undefined;
    void run.then((r) => {
      exited = r;
    });
    const hook = await waitFor(`the hook Job ${jobName} (helm ${args[0]})`, async () => {
      if (exited) throw new Error(`helm ${args[0]} exited before its hook ran: ${exited.stderr}`);
      const r = await job(ns, jobName);
      return r.status === 200 ? (r.body as K8sObject & { metadata: { uid: string } }) : undefined;
    });
    const beside = (await onServer(ns, hook.metadata.labels!['app.kubernetes.io/instance']!)).filter(
      (o) => o.kind !== 'Job',
    );
    await finishJob(ns, jobName, outcome);
    return { result: await run, hook, beside };
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'pra-kube-helm-'));
    server = await startKubeApiServer(bins);
    console.log(`[kube] kube-apiserver ${KUBE_SERVER_VERSION} ready in ${server.startupMs} ms`);
    // helm talks to this server only, with caches of its own.
    env = {
      ...process.env,
      KUBECONFIG: server.kubeconfig,
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_DATA_HOME: join(home, 'data'),
    };
    kube = kubeClient(server);
    const crds = await kube.create(
      undefined,
      CRD_FILES.flatMap((f) => parseStrict(readFileSync(join(CRD_DIR, f), 'utf8')).objects) as KubeObject[],
    );
    expect(crds.errors).toEqual([]);
    // Served once Established (what `kubectl wait --for=condition=Established` waits for).
    for (const crd of crds.objects)
      await waitFor(`CRD ${crd.metadata.name} Established`, async () => {
        const got = await kube.get(undefined, crd);
        const cond = got?.status?.conditions?.find((c: { type: string }) => c.type === 'Established');
        return cond?.status === 'True' ? true : undefined;
      });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('serves the pinned Kubernetes release, which the chart’s kubeVersion accepts', async () => {
    const v = await server.api('GET', '/version');
    expect(v.body.gitVersion).toBe(KUBE_SERVER_VERSION);
    const crds = await kube.list(undefined, 'apiextensions.k8s.io/v1', 'CustomResourceDefinition');
    expect(crds.map((c) => c.metadata.name).sort()).toEqual([
      'clusters.postgresql.cnpg.io',
      'podmonitors.monitoring.coreos.com',
      'prometheusrules.monitoring.coreos.com',
      'servicemonitors.monitoring.coreos.com',
    ]);
  });

  describe.each(VALUE_SETS.map((s, i) => ({ ...s, ns: `strict-${i}` })))('$name', ({ args, ns }) => {
    it('has every rendered object admitted and stored with strict field validation', async () => {
      const { objects } = await template('pra', ns, args);
      await createNamespace(ns);
      const created = await createStrict(ns, objects);
      expect(created.errors).toEqual([]);
      expect(created.warnings).toEqual([]);
      expect(created.objects.map(id)).toEqual(objects.map(id));
      // Stored, as rendered: each one read back from the server.
      const back = await Promise.all(objects.map((o) => kube.get(ns, o as KubeObject)));
      expect(back.map((o) => o && id(o))).toEqual(objects.map(id));
      expect(back.every((o) => o?.metadata.namespace === ns && o.metadata.uid)).toBe(true);
      // The custom resources keep every field (a field their CRD did not know would be pruned, and strict
      // validation would have refused it first).
      for (const cr of objects.filter(
        (o) => o.apiVersion.includes('.cnpg.io/') || o.apiVersion.includes('.coreos.com/'),
      )) {
        const stored = await kube.get(ns, cr as KubeObject);
        expect(stored?.spec).toMatchObject(cr.spec);
      }
    }, 120_000);
  });

  it('holds the CloudNativePG Cluster and the PrometheusRule to their CRDs’ schemas', async () => {
    const ns = 'crd-schemas';
    await createNamespace(ns);
    const { objects } = await template('pra', ns, VALUE_SETS.at(-1)!.args);
    const cluster = objects.find((o) => o.kind === 'Cluster')!;
    const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
    expect(cluster && rule).toBeTruthy();
    /** The server's one refusal of an object (a dry run: nothing stored either way). */
    const refused = async (o: K8sObject) => {
      const r = await createStrict(ns, [o], true);
      expect(r.objects).toEqual([]);
      expect(r.errors).toHaveLength(1);
      return r.errors[0]!;
    };
    // The object as rendered passes (so each refusal below is the change's).
    expect((await createStrict(ns, [cluster, rule], true)).errors).toEqual([]);
    // A misspelt field of the Cluster: strict validation names it.
    expect(await refused({ ...cluster, spec: { ...cluster.spec, instance: 3 } })).toMatch(
      /unknown field "spec\.instance"/,
    );
    // A wrong type, and a value the CRD's enum does not have.
    expect(await refused({ ...cluster, spec: { ...cluster.spec, instances: 'four' } })).toMatch(
      /spec\.instances: Invalid value: "string"/,
    );
    expect(await refused({ ...cluster, spec: { ...cluster.spec, primaryUpdateStrategy: 'whenever' } })).toMatch(
      /spec\.primaryUpdateStrategy: Unsupported value: "whenever"/,
    );
    // A rule without its expression.
    const groups = structuredClone(rule.spec.groups) as { rules: { expr?: string }[] }[];
    delete groups[0]!.rules[0]!.expr;
    expect(await refused({ ...rule, spec: { groups } })).toMatch(/expr: Required value/);
  }, 60_000);

  it('refuses mistakes the offline checks pass: requests over limits, a bad toleration, a label value with a space', async () => {
    const ns = 'mistakes';
    await createNamespace(ns);
    const cases: { args: string[]; server: RegExp }[] = [
      {
        args: [
          '--set-json',
          'components.lookup.resources={"requests":{"cpu":"2","memory":"128Mi"},"limits":{"cpu":"1","memory":"256Mi"}}',
        ],
        server: /resources\.requests: Invalid value: "2": must be less than or equal to cpu limit of 1/,
      },
      {
        args: [
          '--set-json',
          'defaults.tolerations=[{"key":"dedicated","operator":"Exists","value":"api","effect":"NoSchedule"}]',
        ],
        server: /tolerations\[0\]\.operator: Invalid value: "api": value must be empty when `operator` is 'Exists'/,
      },
      {
        args: [
          '--set',
          'monitoring.prometheusRule.enabled=true',
          '--set',
          'monitoring.prometheusRule.labels.release=kps stack',
        ],
        server: /metadata\.labels: Invalid value: "kps stack"/,
      },
    ];
    for (const c of cases) {
      const { objects } = await template('pra', ns, c.args);
      // What chart.test.ts checks offline finds nothing wrong (it has no schema for a PrometheusRule at all).
      expect(objects.map((o) => (o.kind === 'PrometheusRule' ? '' : schemaProblems(o))).filter(Boolean)).toEqual([]);
      const r = await createStrict(ns, objects, true);
      expect(r.errors.join('\n')).toMatch(c.server);
    }
  }, 120_000);

  it('refuses an unknown field in a values override, which helm install alone only warns about and drops', async () => {
    const ns = 'unknown-field';
    await createNamespace(ns);
    const args = [
      '--set-json',
      'defaults.tolerations=[{"key":"dedicated","operator":"Exists","effect":"NoSchedule","tolerationSecond":30}]',
    ];
    const { objects } = await template('pra', ns, args);
    const strict = await createStrict(ns, objects, true);
    expect(strict.errors.join('\n')).toMatch(
      /unknown field "spec\.template\.spec\.tolerations\[0\]\.tolerationSecond"/,
    );
    // helm install itself: a warning, a "deployed" release, and the field gone from what the server stored.
    const install = await helm(['install', 'pra', CHART, '-n', ns, '--no-hooks', ...args]);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toMatch(
      /Warning: unknown field \\?"spec\.template\.spec\.tolerations\[0\]\.tolerationSecond\\?"/,
    );
    const lookup = await kube.get(ns, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'pra-property-api-lookup' },
    });
    const tolerations = lookup!.spec.template.spec.tolerations;
    expect(tolerations).toEqual([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]);
  }, 120_000);

  describe('helm install, upgrade, rollback and uninstall (the migration Job finished through its status: no kubelet)', () => {
    const ns = 'release';
    const JOB = 'pra-property-api-migrate';
    const first = ['-f', join(CI, 'minimal-values.yaml')];
    const second = ['-f', join(CI, 'production-values.yaml')];
    /** The release's objects on the server match a revision's manifest, each carrying Helm's ownership marks. */
    const matchesManifest = async (revision: number) => {
      const expected = (await manifest('pra', ns, revision)).map(id).sort();
      const found = await onServer(ns, 'pra');
      expect(found.map(id).sort()).toEqual(expected);
      for (const o of found) {
        expect(o.metadata.labels?.['app.kubernetes.io/managed-by'], id(o)).toBe('Helm');
        expect(o.metadata.annotations?.['meta.helm.sh/release-name'], id(o)).toBe('pra');
        expect(o.metadata.annotations?.['meta.helm.sh/release-namespace'], id(o)).toBe(ns);
      }
      return found;
    };
    const status = async () => JSON.parse((await helm(['status', 'pra', '-n', ns, '-o', 'json'])).stdout);

    beforeAll(() => createNamespace(ns));

    it('install: the migration hook first, alone; then every object, owned by the release; the hook deleted once it succeeded', async () => {
      const { result, hook, beside } = await withHook(
        ['install', 'pra', CHART, '-n', ns, '--timeout', '3m', ...first],
        ns,
        JOB,
      );
      expect(result.status, result.stderr).toBe(0);
      expect(hook.metadata.annotations).toMatchObject({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      // Pre-install: nothing of the release existed while the migrations ran.
      expect(beside).toEqual([]);
      expect((await job(ns, JOB)).status).toBe(404);
      const found = await matchesManifest(1);
      expect(found.map(id)).toEqual(
        expect.arrayContaining(['Deployment/pra-property-api-lookup', 'Job/pra-property-api-rekey-1']),
      );
      expect(found.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
      expect((await status()).info.status).toBe('deployed');
    }, 240_000);

    it('upgrade to the production values: the hook runs again before any object changes; then the new objects, the old ones gone', async () => {
      const { result, hook, beside } = await withHook(
        ['upgrade', 'pra', CHART, '-n', ns, '--timeout', '3m', ...second],
        ns,
        JOB,
      );
      expect(result.status, result.stderr).toBe(0);
      expect(hook.metadata.labels?.['app.kubernetes.io/component']).toBe('migrate');
      // Pre-upgrade: while the migrations ran, the release was still revision 1's (no HPA, one replica).
      expect(beside.map(id).sort()).toEqual(
        (await manifest('pra', ns, 1))
          .filter((o) => o.kind !== 'Job')
          .map(id)
          .sort(),
      );
      expect(beside.find((o) => id(o) === 'Deployment/pra-property-api-lookup')!.spec.replicas).toBe(1);
      expect((await job(ns, JOB)).status).toBe(404);
      const found = await matchesManifest(2);
      expect(found.map(id)).toEqual(
        expect.arrayContaining([
          'HorizontalPodAutoscaler/pra-property-api-lookup',
          'StatefulSet/pra-property-api-typesense',
          'Job/pra-property-api-rekey-2',
        ]),
      );
      expect(found.map(id)).not.toContain('Job/pra-property-api-rekey-1');
      const lookup = found.find((o) => id(o) === 'Deployment/pra-property-api-lookup')!;
      expect(lookup.spec.template.spec.containers[0].image).toBe('registry.example.com/property-api:2.0.0');
      expect((await status()).version).toBe(2);
    }, 240_000);

    it('rollback to revision 1: no hook (migrations only add), revision 1’s objects back', async () => {
      const r = await helm(['rollback', 'pra', '1', '-n', ns, '--timeout', '3m']);
      expect(r.status, r.stderr).toBe(0);
      expect((await job(ns, JOB)).status).toBe(404);
      const found = await matchesManifest(3);
      expect(found.map(id).sort()).toEqual((await manifest('pra', ns, 1)).map(id).sort());
      expect(found.filter((o) => o.kind === 'HorizontalPodAutoscaler' || o.kind === 'StatefulSet')).toEqual([]);
      const history = JSON.parse((await helm(['history', 'pra', '-n', ns, '-o', 'json'])).stdout);
      expect(history.map((h: { revision: number; status: string }) => [h.revision, h.status])).toEqual([
        [1, 'superseded'],
        [2, 'superseded'],
        [3, 'deployed'],
      ]);
    }, 240_000);

    it('uninstall: every object and the release’s records gone', async () => {
      const r = await helm(['uninstall', 'pra', '-n', ns, '--wait', '--timeout', '2m']);
      expect(r.status, r.stderr).toBe(0);
      expect(await onServer(ns, 'pra')).toEqual([]);
      expect(await kube.list(ns, 'v1', 'Secret', 'owner=helm')).toEqual([]);
    }, 240_000);
  });

  it('fails the install when the migration Job fails, creating nothing else, and keeps the Job for its logs', async () => {
    const ns = 'failed-migration';
    await createNamespace(ns);
    const { result } = await withHook(
      ['install', 'pra', CHART, '-n', ns, '--timeout', '3m', '-f', join(CI, 'minimal-values.yaml')],
      ns,
      'pra-property-api-migrate',
      'Failed',
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/pre-install.*failed|failed pre-install/i);
    expect((await onServer(ns, 'pra')).map(id)).toEqual(['Job/pra-property-api-migrate']);
  }, 240_000);

  it('installs the release of the longest name, hook included', async () => {
    const ns = 'long-name';
    await createNamespace(ns);
    const { objects } = renderLongest(helmPath, ns);
    const migrate = objects.find(
      (o) => o.kind === 'Job' && o.metadata.labels?.['app.kubernetes.io/component'] === 'migrate',
    )!;
    const { result } = await withHook(
      ['install', LONGEST_RELEASE, CHART, '-n', ns, '--timeout', '3m', ...LONGEST_ARGS],
      ns,
      migrate.metadata.name,
    );
    expect(result.status, result.stderr).toBe(0);
    expect((await onServer(ns, LONGEST_RELEASE)).map(id).sort()).toEqual(
      objects
        .filter((o) => !o.metadata.annotations?.['helm.sh/hook'])
        .map(id)
        .sort(),
    );
  }, 240_000);
});
