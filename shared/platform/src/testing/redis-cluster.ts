// A Redis Cluster of a test's own (three masters, one replica, free ports, a temporary directory), for what one Redis
// cannot show: slots and hash tags, MOVED after a failover, CROSSSLOT, a master that comes back empty. Started,
// checked and stopped with the test; never the machine's shared Redis.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { redisTarget } from '@pra/core/config';
import { freePort } from './free-port.js';

export interface ClusterNode {
  port: number;
  id: string;
  role: 'master' | 'replica';
  /** A replica's master. */
  masterPort?: number;
}

export interface OwnRedisCluster {
  /** `127.0.0.1:p1,127.0.0.1:p2,...` (every node), for REDIS_CLUSTER_NODES. */
  seeds: string;
  /** redisTarget({ REDIS_URL, REDIS_CLUSTER_NODES: seeds }): what createRedis turns into a cluster client. */
  target: string;
  /** Every node as the cluster last agreed (after start, failover, restart), in start order. */
  readonly nodes: ClusterNode[];
  /** The port of the master serving the key's slot, as the cluster says now (CLUSTER KEYSLOT, CLUSTER SLOTS). */
  masterOf(key: string): Promise<number>;
  /** The port of the master's replica (throws if it has none). */
  replicaOf(masterPort: number): number;
  /** CLUSTER FAILOVER on the master's replica; resolves when the replica serves the slots and the cluster is ok. */
  failover(masterPort: number): Promise<void>;
  /**
   * SIGKILL, then the same node again at once (same port, same nodes.conf: same id and slots) with no data. Down for
   * well under the node timeout, so no failover: a master keeps its slots, empty, and its replica resyncs from it and
   * is emptied too (what persistence off means). Redis holds a restarted master back ~2 s before it serves (its
   * slots answer CLUSTERDOWN meanwhile); resolves once it does. A replica comes back and resyncs its master's data.
   */
  restartEmpty(port: number): Promise<void>;
  /** SIGKILL. Past the node timeout a master's replica promotes itself; a master without one takes its slots down. */
  kill(port: number): Promise<void>;
  /** Starts a killed node again (empty) and waits until the cluster is ok and agreed. */
  start(port: number): Promise<void>;
  /** FLUSHALL on every master. */
  flushAll(): Promise<void>;
  /**
   * Every node's cluster-node-timeout (CONFIG SET), or, without `ms`, the one the cluster started with: a test that
   * stops a node for a while raises it, so that the node is not called failed, and restores it after.
   */
  setNodeTimeout(ms?: number): Promise<void>;
  /** Kills every node and removes the directory. */
  stop(): Promise<void>;
}

/** Short enough to promote a replica quickly if a test keeps a master down; long enough for a restart not to. */
export const CLUSTER_NODE_TIMEOUT_MS = 3_000;
const WAIT_MS = 20_000;

const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until check returns null; its last answer (or error) says what was still wrong when time ran out. */
async function until(what: string, check: () => Promise<string | null>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let state = 'not checked';
  while (Date.now() < deadline) {
    state = (await check().catch((e: Error) => e.message)) ?? '';
    if (!state) return;
    await sleep(50);
  }
  throw new Error(`Redis Cluster: ${what} not within ${timeoutMs} ms: ${state}`);
}

/** One CLUSTER NODES line, reduced to what every node must agree on. */
interface Seen {
  id: string;
  port: number;
  master: boolean;
  masterId: string;
  slots: string;
  trouble: string;
}

function parseNodes(text: string): Seen[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, addr, flags, masterId, , , , link, ...slots] = line.split(' ') as string[];
      const f = flags!.split(',');
      const bad = f.filter((x) => ['fail', 'fail?', 'handshake', 'noaddr'].includes(x));
      return {
        id: id!,
        port: Number(addr!.split('@')[0]!.split(':').pop()),
        master: f.includes('master'),
        masterId: masterId!,
        slots: slots.join(' '),
        trouble: [...bad, ...(link === 'connected' ? [] : [link!])].join(','),
      };
    })
    .sort((a, b) => a.port - b.port);
}

/**
 * Three masters (nodes[0..2], redis-cli --cluster create) and nodes[3], a replica of nodes[0]: a few seconds to start
 * (redis-cli waits in whole seconds for the nodes to agree).
 */
export async function startRedisCluster(options: { nodeTimeoutMs?: number } = {}): Promise<OwnRedisCluster> {
  const nodeTimeout = options.nodeTimeoutMs ?? CLUSTER_NODE_TIMEOUT_MS;
  const dir = mkdtempSync(join(tmpdir(), 'pra-redis-cluster-'));
  // The nodes go with this process however it ends (stop() never called, a crash, a test runner that kills its
  // worker, when no 'exit' handler runs): a shell holds a pipe from it, and when the pipe closes kills the pids
  // listed and removes the directory.
  const watchdog = spawn('sh', ['-c', 'read _; kill -9 $(cat "$0/pids") 2>/dev/null; rm -rf "$0"', dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as Socket).unref();
  // Bus ports chosen too (cluster-port, Redis 7): the default port + 10000 may be taken or past 65535.
  const chosen: number[] = [];
  while (chosen.length < 8) chosen.push(await freePort()); // never the same twice
  const [p1, p2, p3, p4, ...buses] = chosen;
  const ports = [p1!, p2!, p3!, p4!];
  const bus = new Map(ports.map((p, i) => [p, buses[i]!]));
  const children = new Map<number, ChildProcess>();
  const admin = new Map(
    ports.map((port) => {
      // Fails at once while the node is down (the waits poll), never hangs.
      const r = new Redis({
        host: '127.0.0.1',
        port,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 2_000,
        retryStrategy: () => 50,
      });
      r.on('error', () => {});
      return [port, r];
    }),
  );
  const ask = (port: number, ...args: (string | number)[]) => admin.get(port)!.call(String(args[0]), ...args.slice(1));
  let nodes: ClusterNode[] = [];

  const log = (port: number) => join(dir, `redis-${port}.log`);
  const tail = (port: number) => {
    try {
      return readFileSync(log(port), 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return 'no log';
    }
  };
  const rdb = (port: number) => `dump-${port}.rdb`;
  const alive = (c?: ChildProcess) => c?.exitCode === null && c.signalCode === null;
  const listPids = () => {
    const pids = [...children.values()].filter(alive).map((c) => c.pid);
    try {
      writeFileSync(join(dir, 'pids'), pids.join(' '));
    } catch {
      // stopped: the directory is gone, and the nodes with it
    }
  };
  const launch = async (port: number) => {
    // A replica's full sync leaves an RDB (save '' or not), which a restart would load: empty means no file.
    rmSync(join(dir, rdb(port)), { force: true });
    const child = spawn(
      'redis-server',
      [
        ...['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`)],
        ...['--port', String(port), '--cluster-port', String(bus.get(port)), '--bind', '127.0.0.1'],
        ...['--save', '', '--appendonly', 'no', '--cluster-node-timeout', String(nodeTimeout)],
        // A replica's full sync starts at once, not after the default 5 s wait for more replicas.
        ...['--repl-diskless-sync-delay', '0', '--dir', dir, '--logfile', log(port), '--dbfilename', rdb(port)],
      ],
      { stdio: 'ignore' },
    );
    children.set(port, child);
    listPids();
    child.once('exit', listPids);
    await until(`node ${port} answering`, async () =>
      child.exitCode !== null
        ? `exited ${child.exitCode}: ${tail(port)}`
        : (await ask(port, 'PING').catch((e: Error) => e.message)) === 'PONG'
          ? null
          : `no PONG (${tail(port)})`,
    );
  };

  /** Null when every node is ok, sees the same nodes, roles and slots, and every replica's link is up. */
  const agreed = async (): Promise<string | null> => {
    const views = await Promise.all(
      ports.map(async (port) => {
        const info = String(await ask(port, 'CLUSTER', 'INFO'));
        if (!info.includes('cluster_state:ok')) return `node ${port}: ${/cluster_state:\w+/.exec(info)?.[0]}`;
        const seen = parseNodes(String(await ask(port, 'CLUSTER', 'NODES')));
        const trouble = seen.filter((n) => n.trouble).map((n) => `${n.port} ${n.trouble}`);
        if (seen.length !== ports.length || trouble.length > 0)
          return `node ${port} sees ${seen.length} nodes${trouble.length ? `, ${trouble.join('; ')}` : ''}`;
        const me = seen.find((n) => n.port === port)!;
        if (!me.master) {
          const repl = String(await ask(port, 'INFO', 'replication'));
          if (!repl.includes('master_link_status:up')) return `replica ${port}: master_link_status not up`;
        }
        return seen;
      }),
    );
    const wrong = views.find((v) => typeof v === 'string');
    if (wrong) return wrong;
    const [first, ...rest] = views as Seen[][];
    const key = (v: Seen[]) => v.map((n) => `${n.id} ${n.master ? 'master' : n.masterId} ${n.slots}`).join('\n');
    const other = rest.findIndex((v) => key(v) !== key(first!));
    if (other >= 0) return `nodes ${ports[0]} and ${ports[other + 1]} disagree on the slot map`;
    const portOf = new Map(first!.map((n) => [n.id, n.port]));
    // In start order (nodes[0] is the first master, nodes[3] the replica at start).
    nodes = [...first!]
      .sort((a, b) => ports.indexOf(a.port) - ports.indexOf(b.port))
      .map((n) => ({
        port: n.port,
        id: n.id,
        role: n.master ? 'master' : 'replica',
        ...(n.master ? {} : { masterPort: portOf.get(n.masterId)! }),
      }));
    return null;
  };

  const kill = async (port: number) => {
    const child = children.get(port);
    if (child) await ended(child, 'SIGKILL');
  };
  const stop = async () => {
    await Promise.all([...children.values()].map((c) => ended(c, 'SIGKILL')));
    for (const r of admin.values()) r.disconnect();
    watchdog.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const replicaOf = (masterPort: number) => {
    const replica = nodes.find((n) => n.masterPort === masterPort);
    if (!replica) throw new Error(`Redis Cluster: node ${masterPort} has no replica (nodes: ${JSON.stringify(nodes)})`);
    return replica.port;
  };
  const cli = (...args: string[]) =>
    promisify(execFile)('redis-cli', ['--cluster', ...args], { timeout: WAIT_MS }).catch(
      (e: Error & { stdout?: string }) => {
        throw new Error(`redis-cli --cluster ${args[0]} failed: ${e.message} ${e.stdout ?? ''}`);
      },
    );

  try {
    await Promise.all(ports.map(launch));
    const at = (p: number) => `127.0.0.1:${p}`;
    await cli('create', at(p1!), at(p2!), at(p3!), '--cluster-yes');
    await cli(
      'add-node',
      at(p4!),
      at(p1!),
      '--cluster-slave',
      '--cluster-master-id',
      String(await ask(p1!, 'CLUSTER', 'MYID')),
    );
    await until('cluster ok after create', agreed);
  } catch (e) {
    await stop();
    throw e;
  }

  const seeds = ports.map((p) => `127.0.0.1:${p}`).join(',');
  return {
    seeds,
    target: redisTarget({ REDIS_URL: `redis://127.0.0.1:${p1}`, REDIS_CLUSTER_NODES: seeds }),
    get nodes() {
      return nodes.map((n) => ({ ...n }));
    },
    async masterOf(key) {
      // Asked of a running node: a test may have killed any.
      const port = ports.find((p) => alive(children.get(p)))!;
      const slot = Number(await ask(port, 'CLUSTER', 'KEYSLOT', key));
      const ranges = (await ask(port, 'CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const range = ranges.find(([from, to]) => from <= slot && slot <= to);
      if (!range) throw new Error(`Redis Cluster: no master serves slot ${slot} (key ${key})`);
      return Number(range[2][1]);
    },
    replicaOf,
    async failover(masterPort) {
      const replica = replicaOf(masterPort);
      await ask(replica, 'CLUSTER', 'FAILOVER');
      await until(`failover of ${masterPort} to ${replica}`, async () => {
        const role = (await ask(replica, 'ROLE')) as string[];
        if (role[0] !== 'master') return `node ${replica} is still ${role[0]}`;
        const wrong = await agreed();
        if (wrong) return wrong;
        return nodes.find((n) => n.port === masterPort)?.masterPort === replica
          ? null
          : `${masterPort} not yet its replica`;
      });
    },
    async restartEmpty(port) {
      await kill(port);
      await launch(port);
      await until(`cluster ok after restarting ${port}`, agreed);
    },
    kill,
    async start(port) {
      await launch(port);
      await until(`cluster ok after starting ${port}`, agreed);
    },
    async flushAll() {
      await Promise.all(nodes.filter((n) => n.role === 'master').map((n) => ask(n.port, 'FLUSHALL')));
    },
    async setNodeTimeout(ms = nodeTimeout) {
      await Promise.all(nodes.map((n) => ask(n.port, 'CONFIG', 'SET', 'cluster-node-timeout', String(ms))));
    },
    stop,
  };
}
