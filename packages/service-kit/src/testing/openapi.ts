import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';

type Server = Parameters<typeof request>[0];
interface Document {
  openapi: string;
  paths: Record<string, unknown>;
}

/** GET /openapi.json answers, as JSON, a valid OpenAPI 3.1 document, which is returned. */
export async function expectValidOpenApiDocument(server: Server): Promise<Document> {
  const res = await request(server).get('/openapi.json').expect(200).expect('Content-Type', /json/);
  const document = res.body as Document;
  if (document.openapi !== '3.1.0') {
    throw new Error(`/openapi.json is OpenAPI ${document.openapi}, not 3.1.0`);
  }
  const result = await new Validator().validate(res.body);
  if (!result.valid) {
    throw new Error(`/openapi.json is not valid OpenAPI: ${JSON.stringify(result.errors)}`);
  }
  return document;
}

/**
 * Every path of `document`, its parameters filled in by `fill`, answers GET with 200 and JSON,
 * and HEAD alike without a body: the same Content-Type, Content-Length and ETag.
 */
export async function expectDocumentedGetsAndHeads(
  server: Server,
  document: { paths: Record<string, unknown> },
  fill: (template: string) => string,
): Promise<void> {
  for (const template of Object.keys(document.paths)) {
    const url = fill(template);
    const full = await request(server).get(url).set('Accept-Encoding', 'identity').expect(200);
    const head = await request(server).head(url).set('Accept-Encoding', 'identity').expect(200);
    const problems = [
      head.text !== undefined && 'HEAD has a body',
      !/json/.test(head.headers['content-type'] ?? '') && 'HEAD is not JSON',
      ...(['content-type', 'content-length', 'etag'] as const)
        .filter((name) => head.headers[name] !== full.headers[name])
        .map((name) => `HEAD's ${name} is not GET's`),
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`${url}: ${problems.join('; ')}`);
  }
}
