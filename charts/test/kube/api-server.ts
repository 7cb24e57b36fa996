// A Kubernetes API server of a test's own: etcd and kube-apiserver (built by charts/test/kube/build.sh) on loopback,
// free ports, a temporary directory, certificates made with openssl, AlwaysAllow authorization, a kubeconfig for
// helm, and requests with the client certificate for the rest (kube/client.ts). No controller manager, scheduler or kubelet: objects are admitted and stored, nothing runs.
// Stopped with the test, and also when the vitest worker dies without stopping it (a watchdog, as the Redis Cluster
// harness has).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, goPath } from '@pra/platform/testing';

/** What charts/test/kube/build.sh builds; the tests print a SKIP line naming it when a binary is missing. */
export const BUILD_SCRIPT = 'charts/test/kube/build.sh';
const BUILD_SH = fileURLToPath(new URL('./build.sh', import.meta.url));
/** The release build.sh pins (`KUBE_VERSION=`), read from it so the two never disagree. */
export const KUBE_SERVER_VERSION = /^KUBE_VERSION=(v[\d.]+)/m.exec(readFileSync(BUILD_SH, 'utf8'))![1]!;

export interface KubeBinaries {
  etcd: string;
  apiserver: string;
}

/**
 * The two binaries build.sh installs in GOPATH/bin (env ETCD, KUBE_APISERVER name others), or the names of those
 * missing. Never one found on PATH: a kube-apiserver there is of another release.
 */
export function findKubeBinaries(): KubeBinaries | { missing: string[] } {
  const find = (name: string, envVar: string) => {
    const path = process.env[envVar] || join(goPath(), 'bin', name);
    return existsSync(path) ? path : null;
  };
  const etcd = find('etcd', 'ETCD');
  const apiserver = find('kube-apiserver', 'KUBE_APISERVER');
  if (etcd && apiserver) return { etcd, apiserver };
  return { missing: [!etcd && 'etcd', !apiserver && 'kube-apiserver'].filter(Boolean) as string[] };
}

/** An answer of the API: its status, its parsed JSON body (or text), and the messages of its Warning headers. */
export interface ApiAnswer {
  status: number;
  body: any;
  warnings: string[];
}

export interface KubeApiServer {
  /** https://127.0.0.1:<port> */
  url: string;
  /** A kubeconfig file (client certificate of group system:masters) for helm. */
  kubeconfig: string;
  /** Milliseconds from spawning etcd to /readyz answering ok. */
  startupMs: number;
  /** A request to the API with the client certificate (path with its query string). */
  api(method: string, path: string, body?: unknown, contentType?: string): Promise<ApiAnswer>;
  /** Kills both processes and removes the directory. */
  stop(): Promise<void>;
}

const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A CA, a serving certificate for 127.0.0.1 and a client certificate (system:masters), and a service-account key. */
function makeCertificates(dir: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const key = (name: string) => ssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', name);
  key('ca.key');
  ssl('req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=pra-test-ca', '-days', '2', '-out', 'ca.crt');
  const sign = (name: string, subject: string, ext: string) => {
    key(`${name}.key`);
    ssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    writeFileSync(join(dir, `${name}.ext`), ext);
    ssl(
      ...['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
      ...['-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.crt`],
    );
  };
  sign(
    'server',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n',
  );
  sign('client', '/O=system:masters/CN=pra-test-admin', 'extendedKeyUsage=clientAuth\n');
  key('sa.key');
  ssl('pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub');
}

/** Starts etcd and kube-apiserver and waits until /readyz says ok (about 5-15 s; longer on a busy machine). */
export async function startKubeApiServer(bins: KubeBinaries, options: { readyTimeoutMs?: number } = {}) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'pra-kube-'));
  // The processes go with this one however it ends (stop() never called, a crash, a worker the runner kills, when
  // no 'exit' handler runs): a shell holds a pipe from it, and when the pipe closes kills the pids listed and removes
  // the directory.
  const watchdog = spawn('sh', ['-c', 'read _; kill -9 $(cat "$0/pids") 2>/dev/null; rm -rf "$0"', dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as Socket).unref();
  const children: ChildProcess[] = [];
  const listPids = () => {
    try {
      writeFileSync(join(dir, 'pids'), children.map((c) => c.pid).join(' '));
    } catch {
      // stopped: the directory is gone
    }
  };
  const launch = (bin: string, args: string[], log: string) => {
    const out = join(dir, log);
    writeFileSync(out, '');
    const child = spawn('sh', ['-c', 'exec "$0" "$@" >>"$LOG" 2>&1', bin, ...args], {
      env: { ...process.env, LOG: out },
      stdio: 'ignore',
    });
    children.push(child);
    listPids();
    return child;
  };
  const tail = (log: string) => {
    try {
      return readFileSync(join(dir, log), 'utf8').trim().split('\n').slice(-5).join('\n');
    } catch {
      return 'no log';
    }
  };
  const stop = async () => {
    // The API server first (it holds etcd's connections), then etcd.
    for (const c of [...children].reverse()) await ended(c, 'SIGKILL');
    watchdog.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    makeCertificates(dir);
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    const etcd = launch(
      bins.etcd,
      [
        ...['--name', 'pra', '--data-dir', join(dir, 'etcd')],
        ...['--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl],
        ...['--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl],
        ...['--initial-cluster', `pra=${peerUrl}`, '--log-level', 'warn'],
        // A test's store: nothing to keep across a power loss.
        '--unsafe-no-fsync',
      ],
      'etcd.log',
    );
    const f = (name: string) => join(dir, name);
    const apiserver = launch(
      bins.apiserver,
      [
        `--etcd-servers=${etcdUrl}`,
        ...['--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiPort}`],
        `--cert-dir=${dir}`,
        `--tls-cert-file=${f('server.crt')}`,
        `--tls-private-key-file=${f('server.key')}`,
        `--client-ca-file=${f('ca.crt')}`,
        '--authorization-mode=AlwaysAllow',
        '--service-account-issuer=https://kubernetes.default.svc',
        `--service-account-key-file=${f('sa.pub')}`,
        `--service-account-signing-key-file=${f('sa.key')}`,
        '--service-cluster-ip-range=10.96.0.0/16',
        // No node runs here: the kubernetes Service's endpoints (this loopback address) are not reconciled.
        '--endpoint-reconciler-type=none',
        '--v=0',
      ],
      'kube-apiserver.log',
    );
    const url = `https://127.0.0.1:${apiPort}`;
    const tls = {
      ca: readFileSync(f('ca.crt')),
      cert: readFileSync(f('client.crt')),
      key: readFileSync(f('client.key')),
    };
    const api = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
      new Promise<ApiAnswer>((resolve, reject) => {
        const req = request(
          `${url}${path}`,
          { method, ...tls, headers: body === undefined ? {} : { 'content-type': contentType }, timeout: 10_000 },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => {
              let parsed: unknown = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                // /readyz and errors from proxies answer text
              }
              // `Warning: 299 - "text"` (RFC 7234), one header per warning.
              const warnings = (res.headersDistinct.warning ?? []).map((w) =>
                w.replace(/^\d{3} \S+ "(.*)"$/, '$1').replace(/\\(.)/g, '$1'),
              );
              resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
        req.on('error', reject);
        req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
      });

    const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
    let state = 'not asked';
    for (;;) {
      for (const [child, log] of [
        [etcd, 'etcd.log'],
        [apiserver, 'kube-apiserver.log'],
      ] as const)
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${log.replace('.log', '')} exited (${child.exitCode ?? child.signalCode}):\n${tail(log)}`);
      const r = await api('GET', '/readyz').catch((e: Error) => ({ status: 0, body: e.message, warnings: [] }));
      if (r.status === 200 && r.body === 'ok') break;
      state = `${r.status} ${String(r.body).slice(-300)}`;
      if (Date.now() > deadline)
        throw new Error(`kube-apiserver not ready in time: /readyz ${state}\n${tail('kube-apiserver.log')}`);
      await sleep(250);
    }

    const kubeconfig = f('kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'pra', cluster: { server: url, 'certificate-authority': f('ca.crt') } }],
        users: [{ name: 'admin', user: { 'client-certificate': f('client.crt'), 'client-key': f('client.key') } }],
        contexts: [{ name: 'pra', context: { cluster: 'pra', user: 'admin' } }],
        'current-context': 'pra',
      }),
    );
    const server: KubeApiServer = { url, kubeconfig, startupMs: Date.now() - started, api, stop };
    return server;
  } catch (e) {
    await stop();
    throw e;
  }
}
