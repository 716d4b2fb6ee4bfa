import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';

type Server = Parameters<typeof request>[0];
interface OperationObject {
  parameters?: { name: string; schema?: Record<string, unknown> }[];
  security?: Record<string, unknown>[];
}
interface Document {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/**
 * The service's API is what its document says: GET /openapi.json is a valid OpenAPI 3.1
 * document (returned) that a generated client can use as it is (see `contractProblems`), and
 * every path it documents a GET on, its parameters filled in by `fill`, answers GET with 200 and JSON, HEAD alike without a body (the same Content-Type,
 * Content-Encoding, Vary, Content-Length and ETag, asked for identity and for gzip), and a GET
 * whose If-None-Match matches its ETag with 304 and no body.
 */
export async function expectDocumentedApi(
  server: Server,
  fill: (template: string) => string,
): Promise<Document> {
  const res = await request(server).get('/openapi.json').expect(200).expect('Content-Type', /json/);
  const document = res.body as Document;
  if (document.openapi !== '3.1.0') {
    throw new Error(`/openapi.json is OpenAPI ${document.openapi}, not 3.1.0`);
  }
  const result = await new Validator().validate(res.body);
  if (!result.valid) {
    throw new Error(`/openapi.json is not valid OpenAPI: ${JSON.stringify(result.errors)}`);
  }
  const problems = contractProblems(document);
  if (problems.length > 0) throw new Error(`/openapi.json: ${problems.join('; ')}`);
  for (const [template, operations] of Object.entries(document.paths)) {
    if (!operations.get) continue;
    const url = fill(template);
    const problems: (string | false)[] = [];
    let etag: string | undefined;
    for (const encoding of ['identity', 'gzip']) {
      const full = await request(server).get(url).set('Accept-Encoding', encoding);
      if (full.status !== 200) throw new Error(`${url}: GET answered ${full.status}, not 200`);
      const head = await request(server).head(url).set('Accept-Encoding', encoding);
      problems.push(
        head.status !== 200 && `HEAD answered ${head.status}`,
        head.text !== undefined && 'HEAD has a body',
        !/json/.test(head.headers['content-type'] ?? '') && 'HEAD is not JSON',
        ...HEAD_AS_GET.filter((name) => head.headers[name] !== full.headers[name]).map(
          (name) =>
            `HEAD's ${name} is not GET's (${encoding}: ${head.headers[name]}, not ${full.headers[name]})`,
        ),
      );
      etag = full.headers.etag;
    }
    if (etag) {
      const again = await request(server).get(url).set('If-None-Match', etag);
      if (again.status !== 304) problems.push(`a matching If-None-Match got ${again.status}`);
      else if ((again.text ?? '') !== '') problems.push('a 304 with a body');
    }
    const found = problems.filter(Boolean);
    if (found.length > 0) throw new Error(`${url}: ${found.join('; ')}`);
  }
  return document;
}

/** What a HEAD must say as its GET does (RFC 9110 §9.3.2; Content-Length only if the same, §8.6). */
const HEAD_AS_GET = ['content-type', 'content-encoding', 'vary', 'content-length', 'etag'] as const;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * What valid OpenAPI still leaves a client to guess: a `servers` entry; a `type` beside every
 * `enum` and `const`; a `maximum` on every integer parameter (a larger one is refused); and, in a document
 * with security schemes, a `security` on every operation (`[]` for one that needs none) naming
 * only schemes it defines.
 */
function contractProblems(document: Document): string[] {
  const problems: string[] = [];
  if (!Array.isArray(document.servers) || document.servers.length === 0) {
    problems.push('no servers entry');
  }
  for (const pointer of untypedEnums(document, '#'))
    problems.push(`an enum or const without a type at ${pointer}`);
  const schemes = Object.keys(document.components?.securitySchemes ?? {});
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!OPERATION_METHODS.includes(method)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      for (const { name, schema } of operation.parameters ?? []) {
        if (schema?.type === 'integer' && schema.maximum === undefined) {
          problems.push(`${label}: the integer parameter ${name} states no maximum`);
        }
      }
      const { security } = operation;
      if (schemes.length > 0 && security === undefined) {
        problems.push(`${label}: no security (\`[]\` when it needs none)`);
      }
      for (const name of (security ?? []).flatMap(Object.keys)) {
        if (!schemes.includes(name))
          problems.push(`${label}: the security scheme ${name} is not defined`);
      }
    }
  }
  return problems;
}

/** The JSON pointers of the schemas under `value` with an `enum` or a `const` but no `type`. */
function untypedEnums(value: unknown, pointer: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  if (!Array.isArray(value)) {
    const schema = value as Record<string, unknown>;
    const fixed = Array.isArray(schema.enum) || Object.hasOwn(schema, 'const');
    if (fixed && schema.type === undefined) found.push(pointer);
  }
  for (const [key, item] of Object.entries(value)) {
    found.push(
      ...untypedEnums(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
    );
  }
  return found;
}
