import { Ajv } from 'ajv';
import { expect } from 'chai';
import { expectDocumentedApi } from 'service-kit/testing';
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
  it('documents every JSON route the service has, each answering as documented', async () => {
    const document = await expectDocumentedApi(app, (template) =>
      template.replace('{destination}', seededEntry('new-york').slug),
    );
    expect(Object.keys(document.paths)).to.have.members([
      '/healthz',
      '/livez',
      '/readyz',
      '/api/itineraries',
      '/api/itineraries/{destination}',
      '/api/itineraries/{destination}/highlights',
      '/openapi.json',
    ]);
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

  it('/docs shows the document in the site layout, with no inline style or script', async () => {
    const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include(
      '<code>/<span class="path-segment">api</span>/<wbr><span class="path-segment">itineraries</span>/<wbr><span class="path-segment">{destination}</span></code>',
    );
    expect(res.text).to.include('Trip Planner');
    expect(res.text).to.not.match(/style=|<style|<script/);
  });
});
