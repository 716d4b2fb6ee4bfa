import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import request from 'supertest';
import { jsonPathTest } from '../app.js';
import { normalizedPath } from '../middleware/path.js';

type Document = { paths: Record<string, Record<string, { responses: Record<string, Response> }>> };
type Response = { content?: Record<string, unknown> };

/**
 * Checks responses against an OpenAPI document: a documented route must answer a documented
 * status with a body matching its schema, and any other JSON route must answer the error body.
 */
export class Conformance {
  readonly violations: string[] = [];
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #routes: { pattern: RegExp; template: string }[];
  readonly #validators = new Map<string, ValidateFunction>();

  readonly isApi: (path: string) => boolean;

  /** `jsonPaths`: the service's JSON path prefixes (as given to createServiceApp), or a test. */
  constructor(
    readonly document: Document,
    jsonPaths: readonly string[] | ((path: string) => boolean),
  ) {
    this.isApi = typeof jsonPaths === 'function' ? jsonPaths : jsonPathTest(jsonPaths);
    this.#ajv.addSchema(document, 'openapi.json');
    this.#routes = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
  }

  check(
    method: string,
    url: string,
    res: { status: number; headers: Record<string, string>; body: unknown },
  ) {
    // The path as the service routes it (`%74op-rated` is `top-rated`).
    const path = normalizedPath(new URL(url, 'http://x').pathname);
    if (!this.isApi(path)) return;
    const label = `${method.toUpperCase()} ${path} -> ${res.status}`;
    const route = this.#routes.find((r) => r.pattern.test(path));
    // HEAD is GET without the body (RFC 9110), so it answers to the GET operation.
    const documented = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = route && this.document.paths[route.template]?.[documented];
    if (!operation) {
      if (res.status < 400 && method.toUpperCase() !== 'OPTIONS')
        this.violations.push(`${label}: undocumented route`);
      else if (res.status >= 400) this.#validate('#/components/schemas/Error', res, label);
      return;
    }
    const response = operation.responses[String(res.status)];
    if (!response) {
      this.violations.push(`${label}: status not documented`);
      return;
    }
    if (response.content && method.toUpperCase() !== 'HEAD') {
      const pointer = `#/paths/${jsonPointerEscape(route.template)}/${documented}/responses/${res.status}/content/application~1json/schema`;
      this.#validate(pointer, res, label);
    }
  }

  #validate(
    pointer: string,
    res: { headers: Record<string, string>; body: unknown },
    label: string,
  ) {
    if (!/^application\/json/.test(res.headers['content-type'] ?? '')) {
      this.violations.push(`${label}: not JSON but ${res.headers['content-type']}`);
      return;
    }
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `openapi.json${pointer}` });
      this.#validators.set(pointer, validate);
    }
    if (!validate(res.body)) {
      this.violations.push(`${label}: ${this.#ajv.errorsText(validate.errors)}`);
    }
  }

  /** supertest, with every response checked. */
  request(app: Parameters<typeof request>[0]) {
    const agent = request(app);
    const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
    for (const method of methods) {
      const send = agent[method].bind(agent);
      agent[method] = ((url: string) =>
        send(url).on('response', (res) => this.check(method, url, res))) as never;
    }
    return agent;
  }
}

const jsonPointerEscape = (template: string) => template.replace(/~/g, '~0').replace(/\//g, '~1');
