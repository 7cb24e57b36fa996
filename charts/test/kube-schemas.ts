// Offline validation of rendered objects against the Kubernetes API schemas that kubernetes-models (pinned in
// package.json) is generated from: required fields, types and formats of every field it knows. CloudNativePG's
// Cluster against its CRD's schema, from @kubernetes-models/cloudnative-pg (pinned in package.json). And, as the API
// server's strict field validation does (helm install: "unknown field"), no field that the schema does not know.
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { Cluster } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Cluster';
import type { K8sObject } from './helm.js';

const MODELS: Record<string, new (o: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'postgresql.cnpg.io/v1/Cluster': Cluster,
};

/** Problems with one object ('' when it is valid). */
export function schemaProblems(o: K8sObject): string {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model)
    return `${o.kind} ${o.metadata?.name}: no schema for ${o.apiVersion}/${o.kind} (add it to kube-schemas.ts)`;
  try {
    const model = new Model(o) as unknown as Record<string, unknown> & { validate(): void };
    const unknown = watchReads(model);
    model.validate();
    const fields = unknown();
    return fields.length ? `${o.kind} ${o.metadata?.name}: unknown fields ${fields.join(', ')}` : '';
  } catch (err) {
    return `${o.kind} ${o.metadata?.name}: ${String((err as Error).message ?? err)}`;
  }
}

/**
 * Replaces every object under the model's top-level fields with a proxy that records which keys the validator reads.
 * The generated validators read each property their schema names; an object they iterate is a map
 * (additionalProperties: labels, resources' limits, PostgreSQL parameters), whose keys are all allowed. After
 * validate(), the function returned lists the keys of the other objects that nothing read: fields the schema does not
 * have, which the API server refuses (or silently drops, without strict field validation).
 */
export function watchReads(model: Record<string, unknown>): () => string[] {
  const watched: { path: string; keys: string[]; read: Set<string>; map: { iterated: boolean } }[] = [];
  const wrap = (value: unknown, path: string): unknown => {
    if (!value || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v, i) => wrap(v, `${path}[${i}]`));
    const entry = { path, keys: Object.keys(value), read: new Set<string>(), map: { iterated: false } };
    watched.push(entry);
    const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v, `${path}.${k}`)]));
    return new Proxy(copy, {
      get(target, key, receiver) {
        if (typeof key === 'string') entry.read.add(key);
        return Reflect.get(target, key, receiver);
      },
      has(target, key) {
        if (typeof key === 'string') entry.read.add(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        entry.map.iterated = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  for (const key of Object.keys(model)) model[key] = wrap(model[key], key);
  return () =>
    watched
      .filter((w) => !w.map.iterated)
      .flatMap((w) => w.keys.filter((k) => !w.read.has(k)).map((k) => `${w.path}.${k}`));
}
