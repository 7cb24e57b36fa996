// Offline validation of rendered objects against the Kubernetes API schemas that kubernetes-models (pinned in
// package.json) is generated from: required fields, types and formats of every field it knows.
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
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
};

/** Problems with one object ('' when it is valid). */
export function schemaProblems(o: K8sObject): string {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model)
    return `${o.kind} ${o.metadata?.name}: no schema for ${o.apiVersion}/${o.kind} (add it to kube-schemas.ts)`;
  try {
    new Model(o).validate();
    return '';
  } catch (err) {
    return `${o.kind} ${o.metadata?.name}: ${String((err as Error).message ?? err)}`;
  }
}
