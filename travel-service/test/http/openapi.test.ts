import { Ajv } from 'ajv';
import { expect } from 'chai';
import { expectDocumentedGetsAndHeads, expectValidOpenApiDocument } from 'service-kit/testing';
import { checkDestinationName, destinationParameter } from '../../src/routes/params.js';
import {
  conformance,
  seededItineraries as itineraries,
  request,
  seededApp,
  seededDestinations,
  seededEntry,
} from '../helpers.js';

const app = seededApp().callback();
type Operations = Record<
  string,
  {
    parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
    responses: Record<string, unknown>;
  }
>;
const paths = () => conformance.document.paths as unknown as Record<string, Operations>;

describe('OpenAPI document and /docs', () => {
  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApiDocument(app);
  });

  it('documents every JSON route the service has', async () => {
    const { body } = await request(app).get('/openapi.json');
    expect(Object.keys(body.paths)).to.have.members([
      '/healthz',
      '/api/itineraries',
      '/api/itineraries/{destination}',
      '/api/itineraries/{destination}/highlights',
      '/openapi.json',
    ]);
  });

  it('answers every documented route as documented, for GET and HEAD', async () => {
    await expectDocumentedGetsAndHeads(app, conformance.document, (template) =>
      template.replace('{destination}', seededEntry('new-york').slug),
    );
  });

  it('documents the destination parameter with the rules the service applies, and its 400 and 404', () => {
    for (const template of [
      '/api/itineraries/{destination}',
      '/api/itineraries/{destination}/highlights',
    ]) {
      const operation = paths()[template]?.get;
      expect(operation?.parameters).to.deep.equal([destinationParameter]);
      expect(operation?.responses).to.include.keys(['200', '304', '400', '404', '500']);
    }
    expect(destinationParameter.schema).to.include({ maxLength: 100, minLength: 1 });
    const validate = new Ajv().compile(destinationParameter.schema);
    const accepts = (name: string) => {
      try {
        checkDestinationName(name);
        return true;
      } catch {
        return false;
      }
    };
    const names = [
      ...seededDestinations.map((d) => d.name),
      ...itineraries.all.map((e) => e.slug),
      'São Paulo',
      "Côte d'Ivoire",
      'Sa\u0303o',
      '東京',
      'a'.repeat(100),
      'é'.repeat(100),
      'a'.repeat(101),
      '😀',
      '<b>',
      'a/b',
      'a_b',
      'a+b',
      'a;b',
      'a\nb',
      '\u0000',
      '%41',
    ];
    for (const name of names) expect(validate(name), name).to.equal(accepts(name));
  });

  it('/docs renders every operation of the document in the site layout', async () => {
    const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
    for (const path of Object.keys(conformance.document.paths))
      expect(res.text).to.include(`<code>${path}</code>`);
    expect(res.text).to.include('Trip Planner');
    expect(res.text).to.not.match(/undefined|NaN/);
    expect(res.text).to.not.match(/<(script|link)[^>]+https?:/);
    expect(res.text, 'no inline style or script').to.not.match(/style=|<style|<script/);
  });
});
