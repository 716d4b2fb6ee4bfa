// Validates one Kubernetes object against the API's schemas (kubernetes-models, generated from
// Kubernetes' OpenAPI document), and refuses fields the schemas do not know.
import * as apiGroups from 'kubernetes-models';

/** Every model of kubernetes-models, by "apiVersion kind" (core v1 sits one level higher). */
const models = new Map();
const collect = (namespace) => {
  for (const entry of Object.values(namespace)) {
    if (typeof entry === 'function' && entry.apiVersion && entry.kind) {
      models.set(`${entry.apiVersion} ${entry.kind}`, entry);
    } else if (entry && typeof entry === 'object') {
      collect(entry);
    }
  }
};
collect(apiGroups);

/**
 * The problems of one object, each "path: message"; none when it is valid.
 *
 * Kubernetes' schemas do not forbid unknown properties, so a misspelled field (`livenesProbe`)
 * would pass them, and an API server would drop it or refuse it. So the object is validated
 * through proxies that note which fields the validator reads: it reads every field its schema
 * declares, and enumerates the keys of maps (labels, resources, data). A field of a record that
 * was never read is unknown to the schema.
 */
export function schemaProblems(object) {
  const model = models.get(`${object.apiVersion} ${object.kind}`);
  if (!model) return [`no schema for apiVersion "${object.apiVersion}" and kind "${object.kind}"`];
  const visits = [];
  const problems = [];
  try {
    model.prototype.validate.call(watched(object, '', visits));
  } catch (error) {
    if (!Array.isArray(error.errors)) throw error;
    for (const { instancePath, message } of error.errors) {
      problems.push(`${instancePath || '/'}: ${message}`);
    }
  }
  for (const { path, value, read, enumerated } of visits) {
    if (Array.isArray(value) || enumerated) continue;
    for (const key of Object.keys(value)) {
      if (!read.has(key)) problems.push(`${path}/${key}: unknown field`);
    }
  }
  return [...new Set(problems)];
}

/** A proxy of `value` (and, as they are read, of its objects) that records reads in `visits`. */
function watched(value, path, visits) {
  if (value === null || typeof value !== 'object') return value;
  const visit = { path, value, read: new Set(), enumerated: false };
  visits.push(visit);
  const children = new Map();
  return new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) {
        return Reflect.get(target, key, receiver);
      }
      visit.read.add(key);
      if (!children.has(key)) children.set(key, watched(target[key], `${path}/${key}`, visits));
      return children.get(key);
    },
    ownKeys(target) {
      visit.enumerated = true;
      return Reflect.ownKeys(target);
    },
  });
}
