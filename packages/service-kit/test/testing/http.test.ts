import { expect } from 'chai';
import {
  captureLogger,
  expectErrorBody,
  expectManyUnknownParameters,
} from '../../src/testing/http.js';

const json = { 'content-type': 'application/json; charset=utf-8' };
const errorBody = (status: number, body: unknown) => ({ status, headers: json, body });

/** A validator's 400 to `query`: its first `named` names in details, the rest counted. */
function refusal(query: string, named = 5) {
  const names = [...new URLSearchParams(query).keys()];
  const details = names.slice(0, named).map((field) => ({ field, message: 'is not allowed' }));
  const rest = names.length - details.length;
  const error = `Invalid query: ...; and ${rest.toLocaleString('en-US')} more`;
  const body = { error, status: 400, details };
  return { ...errorBody(400, body), text: JSON.stringify(body) };
}

describe('the HTTP helpers of the testing kit', () => {
  describe('expectErrorBody', () => {
    it('passes on the JSON error body, and fails on another status, type or body', () => {
      expectErrorBody(errorBody(404, { error: 'No such game', status: 404 }), 404);
      expect(() => expectErrorBody(errorBody(404, { error: 'x', status: 404 }), 400)).to.throw(
        /expected status 400, got 404/,
      );
      const html = { status: 404, headers: { 'content-type': 'text/html' }, body: {} };
      expect(() => expectErrorBody(html, 404)).to.throw(/expected a JSON error/);
      for (const body of [
        { error: '', status: 404 },
        { error: 'x', status: 400 },
        { status: 404 },
      ]) {
        expect(() => expectErrorBody(errorBody(404, body), 404)).to.throw(/not the error body/);
      }
    });
  });

  describe('expectManyUnknownParameters', () => {
    it('passes on a 400 naming the first five and counting the rest, and returns it', async () => {
      const res = await expectManyUnknownParameters(async (query) => refusal(query));
      expect(res.status).to.equal(400);
    });

    it('fails on an answer that names them all, or counts them wrong, or is no 400', async () => {
      const failure = (ask: Parameters<typeof expectManyUnknownParameters>[0]) =>
        expectManyUnknownParameters(ask, 40).then(
          () => undefined,
          (error: Error) => error.message,
        );
      expect(await failure(async (query) => refusal(query, 40))).to.match(/names k0,k1,.*k39/);
      expect(await failure(async (query) => refusal(`${query}&k40=v`))).to.match(
        /does not count the rest/,
      );
      const ok = { status: 200, headers: json, body: [], text: '[]' };
      expect(await failure(async () => ok)).to.match(/expected status 400, got 200/);
    });
  });

  describe('captureLogger', () => {
    it('keeps each line the logger writes, as JSON', () => {
      const logger = captureLogger('games-service');
      logger.info({ requestId: 'a' }, 'request');
      logger.warn('slow');
      expect(logger.lines).to.have.length(2);
      expect(logger.lines[0]).to.include({ level: 'info', message: 'request', requestId: 'a' });
      expect(logger.lines[1]).to.include({ level: 'warn', message: 'slow' });
    });
  });
});
