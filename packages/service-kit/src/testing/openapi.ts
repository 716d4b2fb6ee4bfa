import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';

type Server = Parameters<typeof request>[0];
interface Document {
  openapi: string;
  paths: Record<string, { get?: unknown }>;
}

/**
 * The service's API is what its document says: GET /openapi.json is a valid OpenAPI 3.1
 * document (returned), and every path it documents a GET on, its parameters filled in by `fill`,
 * answers GET
 * with 200 and JSON, HEAD alike without a body (the same Content-Type, Content-Length and
 * ETag), and a GET whose If-None-Match matches its ETag with 304 and no body.
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
  for (const [template, operations] of Object.entries(document.paths)) {
    if (!operations.get) continue;
    const url = fill(template);
    const full = await request(server).get(url).set('Accept-Encoding', 'identity');
    if (full.status !== 200) throw new Error(`${url}: GET answered ${full.status}, not 200`);
    const head = await request(server).head(url).set('Accept-Encoding', 'identity');
    const problems = [
      head.status !== 200 && `HEAD answered ${head.status}`,
      head.text !== undefined && 'HEAD has a body',
      !/json/.test(head.headers['content-type'] ?? '') && 'HEAD is not JSON',
      ...(['content-type', 'content-length', 'etag'] as const)
        .filter((name) => head.headers[name] !== full.headers[name])
        .map((name) => `HEAD's ${name} is not GET's`),
    ];
    const { etag } = full.headers;
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
