// The checker must refuse what Kubernetes or our rules would refuse: each case breaks one thing
// in a set of objects that passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { manifestProblems } from './check.mjs';
import { selects } from './rules.mjs';

const labels = { 'app.kubernetes.io/name': 'web' };

/** A Deployment, its Service, disruption budget and autoscaler, all valid. */
function validObjects() {
  const probe = (path) => ({ httpGet: { path, port: 'http' }, periodSeconds: 5 });
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: 20,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: 'web',
                image: 'koa-services/web:1',
                ports: [{ name: 'http', containerPort: 3000 }],
                env: [{ name: 'SHUTDOWN_DELAY_MS', value: '5000' }],
                resources: {
                  requests: { cpu: '100m', memory: '128Mi' },
                  limits: { memory: '256Mi' },
                },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ['ALL'] },
                },
                startupProbe: probe('/livez'),
                livenessProbe: probe('/livez'),
                readinessProbe: probe('/readyz'),
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: labels, ports: [{ port: 3000, targetPort: 'http' }] },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 4,
      },
    },
  ];
}

/** The problems of the valid objects after `change` has broken them. */
function problemsAfter(change) {
  const objects = validObjects();
  change(objects);
  return manifestProblems(objects.map((object) => stringify(object)).join('---\n')).problems;
}

const container = (objects) => objects[0].spec.template.spec.containers[0];

describe('manifestProblems', () => {
  it('finds none in valid objects', () => {
    assert.deepEqual(
      problemsAfter(() => {}),
      [],
    );
  });

  it('refuses a misspelled field, with its path', () => {
    const problems = problemsAfter((objects) => {
      const web = container(objects);
      web.livenesProbe = web.livenessProbe;
      delete web.livenessProbe;
    });
    assert.ok(
      problems.includes(
        'Deployment web: /spec/template/spec/containers/0/livenesProbe: unknown field',
      ),
      problems.join('\n'),
    );
    assert.ok(problems.includes('Deployment web: container web: no livenessProbe'));
  });

  it('refuses an unknown field inside a list item and at the top', () => {
    const problems = problemsAfter((objects) => {
      container(objects).env[0].valu = 'x';
      objects[1].specs = {};
    });
    assert.deepEqual(problems, [
      'Deployment web: /spec/template/spec/containers/0/env/0/valu: unknown field',
      'Service web: /specs: unknown field',
    ]);
  });

  it('refuses a value of the wrong type or format', () => {
    const problems = problemsAfter((objects) => {
      objects[3].spec.minReplicas = 'two';
      container(objects).resources.limits.memory = 'a lot';
    });
    assert.ok(
      problems.some((problem) =>
        problem.startsWith('HorizontalPodAutoscaler web: /spec/minReplicas: must be integer'),
      ),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) =>
        problem.includes(
          '/spec/template/spec/containers/0/resources/limits/memory: must match format "quantity"',
        ),
      ),
      problems.join('\n'),
    );
  });

  it('refuses a kind it has no schema for, and YAML that does not parse', () => {
    assert.deepEqual(
      manifestProblems('apiVersion: v1\nkind: Pdo\nmetadata: {name: x}\n').problems,
      ['Pdo x: no schema for apiVersion "v1" and kind "Pdo"'],
    );
    assert.match(manifestProblems('kind: [Service\n').problems[0], /^YAML: /);
  });

  it('requires resources, the security context and the three probes', () => {
    const problems = problemsAfter((objects) => {
      const web = container(objects);
      delete web.resources.requests.cpu;
      delete web.resources.limits;
      web.securityContext.readOnlyRootFilesystem = false;
      delete web.securityContext.allowPrivilegeEscalation;
      web.securityContext.capabilities = { drop: ['NET_RAW'] };
      delete objects[0].spec.template.spec.securityContext;
      delete web.startupProbe;
    });
    const prefix = 'Deployment web: container web: ';
    assert.deepEqual(problems, [
      `${prefix}no CPU request`,
      `${prefix}no memory limit`,
      `${prefix}runAsNonRoot is not true`,
      `${prefix}readOnlyRootFilesystem is not true`,
      `${prefix}allowPrivilegeEscalation is not false`,
      `${prefix}does not drop ALL capabilities`,
      `${prefix}seccompProfile is not RuntimeDefault`,
      `${prefix}no startupProbe`,
    ]);
  });

  it('requires the same of init containers, but no probes', () => {
    const problems = problemsAfter((objects) => {
      const { startupProbe, livenessProbe, readinessProbe, ...init } = container(objects);
      objects[0].spec.template.spec.initContainers = [{ ...init, name: 'setup' }];
      delete objects[0].spec.template.spec.initContainers[0].resources;
    });
    assert.deepEqual(problems, [
      'Deployment web: init container setup: no CPU request',
      'Deployment web: init container setup: no memory request',
      'Deployment web: init container setup: no memory limit',
    ]);
  });

  it('requires SHUTDOWN_DELAY_MS and a grace period above it plus the drain timer', () => {
    assert.deepEqual(
      problemsAfter((objects) => {
        objects[0].spec.template.spec.terminationGracePeriodSeconds = 15;
      }),
      [
        'Deployment web: container web: terminationGracePeriodSeconds (15) is not above SHUTDOWN_DELAY_MS plus the 10 s drain timer (15 s)',
      ],
    );
    assert.deepEqual(
      problemsAfter((objects) => {
        container(objects).env = [];
      }),
      [
        'Deployment web: container web: SHUTDOWN_DELAY_MS is not set to a whole number of milliseconds above 0',
      ],
    );
  });

  it('requires a disruption budget that selects the pods', () => {
    const problems = problemsAfter((objects) => {
      objects[2].spec.selector.matchLabels = { 'app.kubernetes.io/name': 'wbe' };
    });
    assert.deepEqual(problems, ['Deployment web: no PodDisruptionBudget selects its pods']);
  });

  it('refuses a Service that selects nothing and an autoscaler whose target is missing or sets replicas', () => {
    assert.deepEqual(
      problemsAfter((objects) => {
        objects[1].spec.selector = { app: 'web' };
        objects[3].spec.scaleTargetRef.name = 'wbe';
      }),
      [
        'Service web: its selector matches the pods of no workload here',
        'HorizontalPodAutoscaler web: its target Deployment wbe is not here',
      ],
    );
    assert.deepEqual(
      problemsAfter((objects) => {
        objects[0].spec.replicas = 2;
      }),
      [
        'Deployment web: sets replicas, which its HorizontalPodAutoscaler owns (each apply would reset them)',
      ],
    );
  });
});

describe('selects', () => {
  it('follows matchLabels and matchExpressions', () => {
    const pod = { app: 'mongo', tier: 'db' };
    assert.equal(selects({ matchLabels: { app: 'mongo' } }, pod), true);
    assert.equal(selects({ matchLabels: { app: 'web' } }, pod), false);
    assert.equal(
      selects(
        { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'mongo'] }] },
        pod,
      ),
      true,
    );
    assert.equal(
      selects({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['mongo'] }] }, pod),
      false,
    );
    assert.equal(
      selects({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, pod),
      true,
    );
    assert.equal(selects({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, pod), false);
    assert.equal(selects({}, pod), true);
    assert.equal(selects(undefined, pod), false);
  });
});
