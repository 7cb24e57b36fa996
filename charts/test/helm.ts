// Finds and runs helm (installed by .ci/run with `go install helm.sh/helm/v3/cmd/helm@v3.22.0`).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { findGoBinary } from '@pra/platform/testing';

export const CHART = fileURLToPath(new URL('../property-api', import.meta.url));
/** The Kubernetes version the chart is rendered and validated for. */
export const KUBE_VERSION = '1.31.0';

export const findHelm = (): string | null => findGoBinary('helm', 'HELM');

export interface HelmRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** `helm template pra <chart> --kube-version <KUBE_VERSION> ...args`, its status and output (a failing render too). */
export const helmTemplate = (bin: string, args: string[]): HelmRun =>
  helm(bin, ['template', 'pra', CHART, '--kube-version', KUBE_VERSION, ...args]);

export function helm(bin: string, args: string[]): HelmRun {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: any;
};

/**
 * Every document of a YAML stream, read as strictly as a Kubernetes API server reads a manifest: a duplicate key, a
 * syntax error or anything else the parser reports is an error (never a silently dropped value).
 */
export function parseStrict(text: string): { objects: K8sObject[]; errors: string[] } {
  const docs = parseAllDocuments(text, { uniqueKeys: true, strict: true, prettyErrors: true });
  const errors: string[] = [];
  const objects: K8sObject[] = [];
  // A stream without documents carries its own errors.
  if ('empty' in docs) for (const e of [...docs.errors, ...docs.warnings]) errors.push(e.message);
  docs.forEach((d, i) => {
    for (const e of [...d.errors, ...d.warnings]) errors.push(`document ${i + 1}: ${e.message}`);
    const o = d.toJSON();
    if (o && typeof o === 'object' && 'kind' in o) objects.push(o as K8sObject);
  });
  return { objects, errors };
}

/** `helm template` of the chart with a values file (or none): its text. */
export function renderText(bin: string, valuesFile?: string, extra: string[] = []): string {
  const args = [
    'template',
    'pra',
    CHART,
    '--namespace',
    'property-api',
    '--kube-version',
    KUBE_VERSION,
    ...(valuesFile ? ['-f', valuesFile] : []),
    ...extra,
  ];
  return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** `helm template` of the chart with a values file (or none): the rendered objects; throws on any YAML error. */
export function render(bin: string, valuesFile?: string, extra: string[] = []): K8sObject[] {
  const { objects, errors } = parseStrict(renderText(bin, valuesFile, extra));
  if (errors.length > 0) throw new Error(`helm template rendered YAML a strict parser refuses:\n${errors.join('\n')}`);
  return objects;
}
