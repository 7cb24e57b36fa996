// What the chart's tests ask of the API server, as the server's own requests (no kubectl to build): the resource of a
// kind found through the server's discovery documents, objects created with strict field validation
// (`?fieldValidation=Strict`, and `&dryRun=All` for a server-side dry run: the same checks, nothing stored), read
// back, listed by label. The server's words are kept: a refusal is its Status message, a warning its Warning header.
import type { KubeApiServer } from './api-server.js';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: any;
  status?: any;
}

/** What a create asked for: the objects as the server answered them, its refusals and its warnings. */
export interface Created {
  objects: KubeObject[];
  errors: string[];
  warnings: string[];
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** `Kind/name`, as the tests name an object. */
export const id = (o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`;

const message = (body: unknown) =>
  typeof body === 'object' && body && 'message' in body ? String(body.message) : String(body).slice(0, 500);

export function kubeClient(server: KubeApiServer) {
  const discovered = new Map<string, ApiResource[]>();

  /** The URL of a kind's collection (in namespace ns when the kind is namespaced), from the server's discovery. */
  async function collection(apiVersion: string, kind: string, ns: string | undefined): Promise<string> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    let resources = discovered.get(apiVersion);
    if (!resources) {
      const r = await server.api('GET', base);
      if (r.status !== 200)
        throw new Error(`no ${apiVersion} on the server (GET ${base}: ${r.status} ${message(r.body)})`);
      resources = r.body.resources as ApiResource[];
      discovered.set(apiVersion, resources);
    }
    // Subresources (deployments/status) carry their parent's kind: the resource itself has no slash.
    const resource = resources.find((x) => x.kind === kind && !x.name.includes('/'));
    if (!resource) throw new Error(`no kind ${kind} in ${apiVersion} on the server`);
    if (!resource.namespaced) return `${base}/${resource.name}`;
    if (!ns) throw new Error(`${kind} is namespaced: a namespace is needed`);
    return `${base}/namespaces/${ns}/${resource.name}`;
  }

  const objectUrl = async (ns: string | undefined, o: KubeObject) =>
    `${await collection(o.apiVersion, o.kind, o.metadata.namespace ?? ns)}/${encodeURIComponent(o.metadata.name)}`;

  return {
    /**
     * Creates each object in turn (namespaced ones in ns), with strict field validation: an unknown or duplicate
     * field is refused, not dropped. Goes on past a refusal, as `kubectl create -f` does, and reports them all.
     */
    async create(ns: string | undefined, objects: KubeObject[], options: { dryRun?: boolean } = {}): Promise<Created> {
      const query = `?fieldValidation=Strict${options.dryRun ? '&dryRun=All' : ''}`;
      const out: Created = { objects: [], errors: [], warnings: [] };
      for (const o of objects) {
        const url = await collection(o.apiVersion, o.kind, o.metadata.namespace ?? ns);
        const r = await server.api('POST', url + query, o);
        out.warnings.push(...r.warnings.map((w) => `${id(o)}: ${w}`));
        if (r.status === 201 || r.status === 200) out.objects.push(r.body as KubeObject);
        else out.errors.push(`${id(o)}: ${r.status} ${message(r.body)}`);
      }
      return out;
    },

    /** The object as stored (found by its apiVersion, kind, namespace and name), or undefined when there is none. */
    async get(ns: string | undefined, o: KubeObject): Promise<KubeObject | undefined> {
      const r = await server.api('GET', await objectUrl(ns, o));
      if (r.status === 404) return undefined;
      if (r.status !== 200) throw new Error(`GET ${id(o)}: ${r.status} ${message(r.body)}`);
      return r.body as KubeObject;
    },

    /** The objects of a kind (in namespace ns when namespaced) whose labels match a selector, kind and apiVersion set. */
    async list(ns: string | undefined, apiVersion: string, kind: string, labelSelector = ''): Promise<KubeObject[]> {
      const url = await collection(apiVersion, kind, ns);
      const r = await server.api('GET', `${url}?labelSelector=${encodeURIComponent(labelSelector)}`);
      if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${message(r.body)}`);
      // A list's items carry neither: the list's kind says what they are.
      return (r.body.items as KubeObject[]).map((item) => ({ ...item, apiVersion, kind }));
    },
  };
}

export type KubeClient = ReturnType<typeof kubeClient>;
