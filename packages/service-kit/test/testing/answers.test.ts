import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import {
  expectAsciiPages,
  expectCacheControl,
  expectPagesNotFound,
  expectRevalidated,
} from '../../src/testing/answers.js';
import { fixtureService } from '../fixture.js';

/** The message `check` fails with, or undefined when it passes. */
async function failure(check: Promise<void>): Promise<string | undefined> {
  return check.then(
    () => undefined,
    (error: Error) => error.message,
  );
}

describe('answers over a table of paths', () => {
  const fixture = fixtureService();
  const client = fixture.request(fixture.app.callback());

  describe('expectCacheControl', () => {
    it('passes when each path answers its Cache-Control', async () => {
      await expectCacheControl(client, [
        ['/api/items', 'public, max-age=60'],
        ['/api/random', 'no-store'],
        ['/nope', 'no-store'],
      ]);
    });

    it('fails on another Cache-Control, naming the path', async () => {
      const check = expectCacheControl(client, [
        ['/api/random', 'no-store'],
        ['/api/items', 'no-store'],
      ]);
      expect(await failure(check)).to.match(/the Cache-Control of \/api\/items/);
    });
  });

  describe('expectAsciiPages', () => {
    it("passes on the kit's pages, and fails on a character beyond ASCII, naming the path", async () => {
      await expectAsciiPages(client, [
        ['/', 200],
        ['/docs', 200],
        ['/nope', 404],
      ]);
      const dotted = new Koa().use((ctx) => {
        ctx.type = 'html';
        ctx.body = ctx.path === '/dot' ? '<p>a \u00b7 b</p>' : '<p>a &#xB7; b</p>';
      });
      const check = expectAsciiPages(request(dotted.callback()), [
        ['/reference', 200],
        ['/dot', 200],
      ]);
      expect(await failure(check)).to.match(/pages with a character beyond ASCII/);
      expect(await failure(check))
        .to.include('/dot: \u00b7')
        .and.not.include('/reference');
      expect(await failure(expectAsciiPages(client, [['/nope', 200]]))).to.match(/expected 200/);
    });
  });

  describe('expectPagesNotFound', () => {
    it("passes on a path of the pages' 404, for an origin the API allows", async () => {
      await expectPagesNotFound(client, ['/API/items', '/DOCS'], 'https://allowed.example');
    });

    it("fails on the API's JSON 404, and on a path that answers", async () => {
      expect(await failure(expectPagesNotFound(client, ['/api/ITEMS']))).to.match(
        /the Content-Type of \/api\/ITEMS/,
      );
      expect(await failure(expectPagesNotFound(client, ['/api/items']))).to.match(
        /the status of \/api\/items/,
      );
    });

    it('fails on an HTML 404 that allows other origins', async () => {
      const open = new Koa().use((ctx) => {
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.status = 404;
        ctx.type = 'html';
        ctx.body = '<p>Not found</p>';
      });
      expect(await failure(expectPagesNotFound(request(open.callback()), ['/API']))).to.match(
        /CORS on \/API/,
      );
    });
  });

  describe('expectRevalidated', () => {
    it('passes on an answer with a weak ETag, and fails on one never stored', async () => {
      await expectRevalidated(client, '/api/items');
      expect(await failure(expectRevalidated(client, '/api/random'))).to.match(
        /no weak ETag on \/api\/random/,
      );
    });
  });
});
