// The Kubernetes manifests of deploy/kubernetes/ (docs/deploy.md): every object of the kustomization validated against
// the Kubernetes API schemas by kubernetes-models (no cluster, Helm or kubeconform here), then the links between the
// objects that the schemas cannot see: selectors that match the pods, probes on the routes that exist, the config the
// daemon would load, the git-sync link it would watch.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { parseSettings } from '../../src/discovery/settings.js';

const DIR = new URL('../../deploy/kubernetes/', import.meta.url);

/** The model class of each kind the kustomization may hold, with the apiVersion it must declare. */
const MODELS: Record<string, { apiVersion: string; validate: (object: unknown) => void }> = {
  Namespace: { apiVersion: 'v1', validate: (o) => new Namespace(o as never).validate() },
  ConfigMap: { apiVersion: 'v1', validate: (o) => new ConfigMap(o as never).validate() },
  Service: { apiVersion: 'v1', validate: (o) => new Service(o as never).validate() },
  Deployment: { apiVersion: 'apps/v1', validate: (o) => new Deployment(o as never).validate() },
  PodDisruptionBudget: { apiVersion: 'policy/v1', validate: (o) => new PodDisruptionBudget(o as never).validate() },
  NetworkPolicy: { apiVersion: 'networking.k8s.io/v1', validate: (o) => new NetworkPolicy(o as never).validate() },
};

// biome-ignore lint/suspicious/noExplicitAny: manifests are arbitrary YAML, compared field by field
type Manifest = any;

async function loadYaml(name: string): Promise<Manifest[]> {
  const text = await readFile(new URL(name, DIR), 'utf8');
  return parseAllDocuments(text).map((document) => {
    assert.deepEqual(document.errors, [], name);
    return document.toJS();
  });
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

describe('deploy/kubernetes', () => {
  let kustomization: Manifest;
  let objects: Manifest[];
  const byKind = (kind: string): Manifest => {
    const found = objects.filter((object) => object.kind === kind);
    assert.equal(found.length, 1, kind);
    return found[0];
  };

  before(async () => {
    [kustomization] = await loadYaml('kustomization.yaml');
    objects = [];
    for (const file of kustomization.resources as string[]) objects.push(...(await loadYaml(file)));
  });

  it('is a kustomization of a namespace, config, Deployment, Service, PodDisruptionBudget and NetworkPolicy', () => {
    assert.equal(kustomization.apiVersion, 'kustomize.config.k8s.io/v1beta1');
    assert.equal(kustomization.kind, 'Kustomization');
    assert.deepEqual(objects.map((object) => object.kind).sort(), Object.keys(MODELS).sort());
    for (const object of objects) {
      if (object.kind !== 'Namespace') assert.equal(object.metadata.namespace, undefined, 'set by the kustomization');
    }
    assert.equal(byKind('Namespace').metadata.name, kustomization.namespace);
  });

  it('validates every object against the Kubernetes API schemas', () => {
    for (const object of objects) {
      const model = MODELS[object.kind];
      assert.ok(model !== undefined, `no model for ${object.kind}`);
      assert.equal(object.apiVersion, model.apiVersion, object.kind);
      assert.doesNotThrow(() => model.validate(object), `${object.kind} ${object.metadata?.name}`);
    }
  });

  it('is a validator that does refuse a broken object', () => {
    const broken = structuredClone(byKind('Deployment'));
    broken.spec.replicas = 'three';
    assert.throws(() => MODELS.Deployment!.validate(broken), /replicas must be integer/);
    const noContainers = structuredClone(byKind('Deployment'));
    delete noContainers.spec.template.spec.containers;
    assert.throws(() => MODELS.Deployment!.validate(noContainers), /containers/);
  });

  it('runs several replicas with readiness, liveness and startup probes on the health routes, and resources', () => {
    const deployment = byKind('Deployment');
    assert.ok(deployment.spec.replicas >= 2);
    const pod = deployment.spec.template;
    assert.ok(matches(deployment.spec.selector.matchLabels, pod.metadata.labels));
    const skillsd = pod.spec.containers.find((container: Manifest) => container.name === 'skillsd');
    const port = skillsd.ports.find((each: Manifest) => each.name === 'http');
    assert.equal(port.containerPort, 7420);
    assert.deepEqual(skillsd.readinessProbe.httpGet, { path: '/health/ready', port: 'http' });
    assert.deepEqual(skillsd.livenessProbe.httpGet, { path: '/health/live', port: 'http' });
    assert.deepEqual(skillsd.startupProbe.httpGet, { path: '/health/live', port: 'http' });
    for (const container of [...pod.spec.containers, ...pod.spec.initContainers]) {
      assert.ok(container.resources.requests.cpu !== undefined, container.name);
      assert.ok(container.resources.limits.memory !== undefined, container.name);
      assert.equal(container.securityContext.allowPrivilegeEscalation, false, container.name);
      assert.equal(container.securityContext.readOnlyRootFilesystem, true, container.name);
    }
    assert.equal(pod.spec.securityContext.runAsNonRoot, true);
    assert.equal(pod.spec.securityContext.runAsUser, 1000);
    // Within the grace period: the daemon exits within 5 s of SIGTERM.
    assert.ok(pod.spec.terminationGracePeriodSeconds > 5);
  });

  it('pulls the skills repository with git-sync into the volume skillsd reads, at the path the config lists', () => {
    const pod = byKind('Deployment').spec.template.spec;
    const skillsd = pod.containers.find((container: Manifest) => container.name === 'skillsd');
    const gitSyncs = [...pod.initContainers, ...pod.containers].filter((container: Manifest) =>
      String(container.image).startsWith('registry.k8s.io/git-sync/git-sync:v4.'),
    );
    assert.deepEqual(
      gitSyncs.map((container: Manifest) => container.name),
      ['git-sync-init', 'git-sync'],
    );
    assert.ok(gitSyncs[0].args.includes('--one-time'));
    const skillsMount = skillsd.volumeMounts.find((mount: Manifest) => mount.name === 'skills');
    assert.equal(skillsMount.readOnly, true);
    const settings = parseSettings(configText(byKind('ConfigMap').data['config.yaml']));
    for (const sync of gitSyncs) {
      const arg = (name: string) => sync.args.find((each: string) => each.startsWith(`--${name}=`))?.split('=')[1];
      const mount = sync.volumeMounts.find((each: Manifest) => each.name === 'skills');
      assert.equal(arg('root'), mount.mountPath);
      assert.equal(mount.mountPath, skillsMount.mountPath);
      assert.deepEqual(settings.skills.customDirectories, [`${arg('root')}/${arg('link')}`]);
    }
  });

  it('mounts a config the daemon accepts: replicas that agree, allowed Service names', () => {
    const pod = byKind('Deployment').spec.template.spec;
    const configMap = byKind('ConfigMap');
    const volume = pod.volumes.find((each: Manifest) => each.configMap?.name === configMap.metadata.name);
    const skillsd = pod.containers.find((container: Manifest) => container.name === 'skillsd');
    const mount = skillsd.volumeMounts.find((each: Manifest) => each.name === volume.name);
    const configPath = skillsd.env.find((each: Manifest) => each.name === 'SKILLSD_CONFIG').value;
    assert.equal(configPath, `${mount.mountPath}/config.yaml`);
    const settings = parseSettings(configText(configMap.data['config.yaml']));
    assert.equal(settings.server.generation, 'content');
    const service = byKind('Service');
    const namespace = kustomization.namespace;
    for (const name of [service.metadata.name, `${service.metadata.name}.${namespace}.svc.cluster.local`]) {
      assert.ok(settings.server.allowedHosts.includes(name), name);
    }
    assert.equal(settings.server.token, undefined, 'the token comes from a Secret, never from the ConfigMap');
  });

  it('takes the token from a Secret, copied 0600 for the daemon user', () => {
    const pod = byKind('Deployment').spec.template.spec;
    const secret = pod.volumes.find((each: Manifest) => each.secret !== undefined);
    assert.equal(secret.secret.secretName, 'skillsd-token');
    const copy = pod.initContainers.find((container: Manifest) => container.name === 'token');
    assert.match(copy.command.join(' '), /install -m 0600 \S+\/token \/run\/skillsd\/token/);
    const skillsd = pod.containers.find((container: Manifest) => container.name === 'skillsd');
    assert.ok(skillsd.volumeMounts.some((mount: Manifest) => mount.mountPath === '/run/skillsd'));
  });

  it('selects the pods from the Service, the PodDisruptionBudget and the NetworkPolicy, on the named port', () => {
    const labels = byKind('Deployment').spec.template.metadata.labels;
    const service = byKind('Service');
    assert.ok(matches(service.spec.selector, labels));
    assert.deepEqual(service.spec.ports, [{ name: 'http', port: 7420, targetPort: 'http', protocol: 'TCP' }]);
    assert.equal(service.spec.sessionAffinity, undefined, 'replicas agree: no affinity needed');
    const budget = byKind('PodDisruptionBudget');
    assert.ok(matches(budget.spec.selector.matchLabels, labels));
    assert.ok(budget.spec.maxUnavailable < byKind('Deployment').spec.replicas);
    const policy = byKind('NetworkPolicy');
    assert.ok(matches(policy.spec.podSelector.matchLabels, labels));
    assert.deepEqual(policy.spec.ingress[0].ports, [{ port: 'http', protocol: 'TCP' }]);
    assert.deepEqual(policy.spec.policyTypes, ['Ingress', 'Egress']);
  });
});

/** The config file's YAML, parsed as the daemon's config loader does (`yaml`). */
function configText(text: string): unknown {
  const [document] = parseAllDocuments(text);
  assert.deepEqual(document?.errors, []);
  return document?.toJS();
}
