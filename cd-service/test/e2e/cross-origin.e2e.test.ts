import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { useBrowser } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { makeCdInput } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

const TOKEN = 'browser-token';

/** The web app's script: the README's read-modify-write, and what it reads of each answer. */
const APP_SCRIPT = readFileSync(fileURLToPath(new URL('./page-app.js', import.meta.url)));

/** A web app's page and its script, on an origin of its own: a real HTTP server on another port. */
async function pageServer(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(APP_SCRIPT);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>CD app</title><script src="/app.js"></script><h1>CD app</h1></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the page's script reads of each answer. */
interface TryOutcome {
  read: { status: number; etag: string | null; requestId: string | null };
  written: { status: number; etag: string | null; title: string };
  stale: { status: number; body: { error: string; status: number } };
  list: { total: string | null; relation: string | null };
  anonymous: { status: number; challenge: string | null };
}

/** The page's window, with its script's function. */
interface AppWindow {
  tryTheApi(api: string, token: string, id: string): Promise<TryOutcome>;
}

const close = (server: Server | undefined) =>
  new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));

describe('the API from a page of another origin, in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  let app: Awaited<ReturnType<typeof pageServer>>;
  let elsewhere: Awaited<ReturnType<typeof pageServer>>;
  let handle: StoreHandle | undefined;
  // The pages' origins are known before the service starts with them in CORS_ORIGINS.
  before(async () => {
    app = await pageServer();
    elsewhere = await pageServer();
  });
  // The service as its server starts it: its settings read from the environment.
  const service = useBrowser(async () => {
    handle = await sqliteFactory.open();
    const config = readConfig({ CD_API_TOKEN: TOKEN, CORS_ORIGINS: app.origin });
    return createApp({ store: handle.store, ...config });
  });
  after(async () => {
    await Promise.all([close(app?.server), close(elsewhere?.server)]);
    await handle?.dispose();
  });

  /** A new CD, made by the service's own client (no browser): its id. */
  const created = async () => {
    const res = await fetch(`${service.url}/cds`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(makeCdInput({ title: 'In Rainbows', releaseYear: 1990 })),
    });
    expect(res.status).to.equal(201);
    return ((await res.json()) as { id: string }).id;
  };

  it("does the README's read-modify-write: a GET, a PUT with If-Match, a 412 on the stale tag", async () => {
    const id = await created();
    const page = await service.newPage();
    await page.goto(app.origin);
    // The page's own script calls the API, from the page's origin.
    const seen = await page.evaluate(
      ({ api, token, id }) => (window as unknown as AppWindow).tryTheApi(api, token, id),
      { api: service.url, token: TOKEN, id },
    );
    expect(seen.read.status).to.equal(200);
    expect(seen.read.etag).to.equal('"1"');
    expect(seen.read.requestId).to.be.a('string');
    expect(seen.written).to.deep.equal({
      status: 200,
      etag: '"2"',
      title: 'In Rainbows (Remastered)',
    });
    expect(seen.stale.status).to.equal(412);
    expect(seen.stale.body).to.include({ status: 412 });
    expect(seen.stale.body.error).to.match(/has changed since the version If-Match names/);
    expect(seen.list).to.deep.equal({ total: '1', relation: 'eq' });
    expect(seen.anonymous).to.deep.equal({ status: 401, challenge: 'Bearer' });
    // Nothing but the one change got through.
    const stored = (await (await fetch(`${service.url}/cds/${id}`)).json()) as { title: string };
    expect(stored.title).to.equal('In Rainbows (Remastered)');
  });

  it('refuses a page of an origin that CORS_ORIGINS does not list', async () => {
    const id = await created();
    const page = await service.newPage();
    await page.goto(elsewhere.origin);
    const outcome = await page.evaluate(
      async ({ api, id }) =>
        fetch(`${api}/cds/${id}`).then(
          (res) => `answered ${res.status}`,
          (error: Error) => error.name,
        ),
      { api: service.url, id },
    );
    expect(outcome).to.equal('TypeError');
  });
});
