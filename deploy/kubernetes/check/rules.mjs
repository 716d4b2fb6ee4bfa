// The project's own rules for its manifests, beyond what Kubernetes' schemas require.

/** The kit's last-resort drain timer: a service exits at most this long after it stops accepting. */
const DRAIN_TIMER_SECONDS = 10;
const KUBERNETES_DEFAULT_GRACE_SECONDS = 30;
const LONG_RUNNING = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Pod']);
const NEEDS_DISRUPTION_BUDGET = new Set(['Deployment', 'StatefulSet']);

/** "Kind namespace/name", how every problem names its object. */
export function objectName(object) {
  const namespace = object.metadata?.namespace;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${object.metadata?.name}`;
}

/**
 * The problems of a set of objects (one rendered overlay), each "Kind namespace/name: message":
 * - every container (init containers too) has CPU and memory requests and a memory limit;
 * - every container runs as non-root with a read-only root filesystem, no privilege escalation,
 *   all capabilities dropped and the RuntimeDefault seccomp profile (set on it or on its pod);
 * - every container of a long-running workload has liveness, readiness and startup probes;
 * - a container probed on /readyz (a service of ours) sets SHUTDOWN_DELAY_MS, and its pod's grace
 *   period is longer than that delay plus the drain timer;
 * - every Deployment and StatefulSet has a PodDisruptionBudget that selects its pods;
 * - every Service with a selector selects the pods of some workload;
 * - every HorizontalPodAutoscaler targets a workload here, which leaves `replicas` to it.
 */
export function ruleProblems(objects) {
  const problems = [];
  const report = (object, message) => problems.push(`${objectName(object)}: ${message}`);
  const workloads = objects.filter((object) => podTemplate(object));

  for (const object of workloads) {
    const pod = podTemplate(object);
    const containers = [
      ...(pod.spec?.initContainers ?? []).map((container) => ({ container, init: true })),
      ...(pod.spec?.containers ?? []).map((container) => ({ container, init: false })),
    ];
    for (const { container, init } of containers) {
      const where = `${init ? 'init container' : 'container'} ${container.name}`;
      for (const message of containerProblems(container, pod.spec, {
        needsProbes: !init && LONG_RUNNING.has(object.kind),
      })) {
        report(object, `${where}: ${message}`);
      }
    }
    if (NEEDS_DISRUPTION_BUDGET.has(object.kind)) {
      const budgets = objects.filter(
        (budget) =>
          budget.kind === 'PodDisruptionBudget' &&
          sameNamespace(budget, object) &&
          selects(budget.spec?.selector, pod.metadata?.labels),
      );
      if (budgets.length === 0) report(object, 'no PodDisruptionBudget selects its pods');
    }
  }

  for (const service of objects.filter((object) => object.kind === 'Service')) {
    const selector = service.spec?.selector;
    if (!selector || Object.keys(selector).length === 0) continue;
    const selected = workloads.some(
      (workload) =>
        sameNamespace(workload, service) &&
        selects({ matchLabels: selector }, podTemplate(workload).metadata?.labels),
    );
    if (!selected) report(service, 'its selector matches the pods of no workload here');
  }

  for (const autoscaler of objects.filter((object) => object.kind === 'HorizontalPodAutoscaler')) {
    const { kind, name } = autoscaler.spec?.scaleTargetRef ?? {};
    const target = workloads.find(
      (workload) =>
        workload.kind === kind &&
        workload.metadata?.name === name &&
        sameNamespace(workload, autoscaler),
    );
    if (!target) report(autoscaler, `its target ${kind} ${name} is not here`);
    else if (target.spec?.replicas !== undefined) {
      report(
        target,
        'sets replicas, which its HorizontalPodAutoscaler owns (each apply would reset them)',
      );
    }
  }
  return problems;
}

function containerProblems(container, podSpec, { needsProbes }) {
  const problems = [];
  const { requests = {}, limits = {} } = container.resources ?? {};
  if (requests.cpu === undefined) problems.push('no CPU request');
  if (requests.memory === undefined) problems.push('no memory request');
  if (limits.memory === undefined) problems.push('no memory limit');

  const own = container.securityContext ?? {};
  const pod = podSpec?.securityContext ?? {};
  if ((own.runAsNonRoot ?? pod.runAsNonRoot) !== true) problems.push('runAsNonRoot is not true');
  if ((own.runAsUser ?? pod.runAsUser) === 0) problems.push('runs as user 0');
  if (own.readOnlyRootFilesystem !== true) problems.push('readOnlyRootFilesystem is not true');
  if (own.allowPrivilegeEscalation !== false)
    problems.push('allowPrivilegeEscalation is not false');
  if (own.privileged === true) problems.push('is privileged');
  if (!own.capabilities?.drop?.includes('ALL')) problems.push('does not drop ALL capabilities');
  if (own.capabilities?.add?.length) problems.push('adds capabilities');
  if ((own.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault') {
    problems.push('seccompProfile is not RuntimeDefault');
  }

  if (needsProbes) {
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (!container[probe]) problems.push(`no ${probe}`);
    }
  }

  if (container.readinessProbe?.httpGet?.path === '/readyz') {
    const setting = container.env?.find((variable) => variable.name === 'SHUTDOWN_DELAY_MS');
    const delayMs = Number(setting?.value);
    if (!(Number.isInteger(delayMs) && delayMs > 0)) {
      problems.push('SHUTDOWN_DELAY_MS is not set to a whole number of milliseconds above 0');
    } else {
      const grace = podSpec?.terminationGracePeriodSeconds ?? KUBERNETES_DEFAULT_GRACE_SECONDS;
      const needed = delayMs / 1000 + DRAIN_TIMER_SECONDS;
      if (!(grace > needed)) {
        problems.push(
          `terminationGracePeriodSeconds (${grace}) is not above SHUTDOWN_DELAY_MS plus the ${DRAIN_TIMER_SECONDS} s drain timer (${needed} s)`,
        );
      }
    }
  }
  return problems;
}

/** The pod template of a workload (a Pod is its own); undefined for any other object. */
function podTemplate(object) {
  switch (object.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return object.spec?.template;
    case 'CronJob':
      return object.spec?.jobTemplate?.spec?.template;
    case 'Pod':
      return object;
    default:
      return undefined;
  }
}

function sameNamespace(a, b) {
  return (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
}

/**
 * Whether a label selector (matchLabels and matchExpressions) selects these labels. As in
 * Kubernetes, an empty selector selects every pod, and no selector none.
 */
export function selects(selector, labels = {}) {
  if (!selector) return false;
  const { matchLabels = {}, matchExpressions = [] } = selector;
  const byLabels = Object.entries(matchLabels).every(([key, value]) => labels[key] === value);
  return (
    byLabels &&
    matchExpressions.every(({ key, operator, values = [] }) => {
      const has = Object.hasOwn(labels, key);
      switch (operator) {
        case 'In':
          return has && values.includes(labels[key]);
        case 'NotIn':
          return !has || !values.includes(labels[key]);
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          return false;
      }
    })
  );
}
