// Validates rendered Kubernetes manifests offline, with no cluster:
//   kubectl kustomize deploy/kubernetes/base | node check.mjs deploy/kubernetes/base
// Every object against Kubernetes' schemas (unknown fields included), then the project's own
// rules (rules.mjs). Prints each problem; exits 1 if there is any.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { objectName, ruleProblems } from './rules.mjs';
import { schemaProblems } from './schema.mjs';

/** The problems of a multi-document YAML text, each a line naming its object. */
export function manifestProblems(text) {
  const problems = [];
  const objects = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) {
      problems.push(...document.errors.map((error) => `YAML: ${error.message}`));
      continue;
    }
    const object = document.toJS();
    if (object === null) continue;
    if (typeof object !== 'object' || Array.isArray(object)) {
      problems.push('YAML: a document that is not an object');
      continue;
    }
    objects.push(object);
    for (const problem of schemaProblems(object))
      problems.push(`${objectName(object)}: ${problem}`);
  }
  problems.push(...ruleProblems(objects));
  return { objects, problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const label = process.argv[2] ?? 'stdin';
  const { objects, problems } = manifestProblems(readFileSync(0, 'utf8'));
  for (const problem of problems) console.error(`  ${problem}`);
  if (objects.length === 0) {
    console.error(`${label}: no objects rendered`);
    process.exit(1);
  }
  const kinds = [...new Set(objects.map((object) => object.kind))].length;
  if (problems.length > 0) {
    console.error(`${label}: ${problems.length} problem(s) in ${objects.length} objects`);
    process.exit(1);
  }
  console.log(`${label}: ${objects.length} objects of ${kinds} kinds, valid`);
}
