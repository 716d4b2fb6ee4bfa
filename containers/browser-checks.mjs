// The stack as a browser on another origin meets it (headless Chromium, Debian's, driven by the
// kit's playwright-core): a page served here, at PAGE_ORIGIN (which cd's CORS_ORIGINS must list),
//   - over HTTPS, trusting the edge's certificate (its key's hash, as Chromium's
//     --ignore-certificate-errors-spki-list takes it): loads the games page, then reads a CD,
//     changes its title and sends it back with If-Match and the token (a read-modify-write);
//   - over plain HTTP: reads the games API until the edge's 429, and reads its status,
//     Retry-After and RateLimit from the script.
// Prints one JSON line; exits 1 when any of it fails.
//   SPKI=<base64 sha256> TOKEN=... PAGE_ORIGIN=http://127.0.0.1:13999 \
//     node containers/browser-checks.mjs GAMES_HTTPS CD_HTTPS GAMES_HTTP CD_ID
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const [gamesHttps, cdHttps, gamesHttp, cdId] = process.argv.slice(2);
const { SPKI: spki, TOKEN: token = '', PAGE_ORIGIN: pageOrigin } = process.env;
if (!cdId || !spki || !pageOrigin) {
  console.error('usage: SPKI=... PAGE_ORIGIN=... [TOKEN=...] node browser-checks.mjs GAMES_HTTPS CD_HTTPS GAMES_HTTP CD_ID');
  process.exit(2);
}
const kit = new URL('../packages/service-kit/package.json', import.meta.url);
const { chromium } = createRequire(kit)('playwright-core');

// The page of another origin: empty; its scripts come from page.evaluate.
const page = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Another origin</title>');
});
const { port } = new URL(pageOrigin);
await new Promise((resolve) => page.listen(Number(port), '127.0.0.1', resolve));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium-headless-shell',
  args: [`--ignore-certificate-errors-spki-list=${spki}`],
});
const outcome = { problems: [] };
try {
  const tab = await browser.newPage();
  const games = await tab.goto(`${gamesHttps}/`);
  outcome.gamesPage = { status: games?.status(), title: await tab.title() };
  if (games?.status() !== 200) outcome.problems.push(`the games page over HTTPS: ${games?.status()}`);

  await tab.goto(`${pageOrigin}/`);
  outcome.readModifyWrite = await tab.evaluate(
    async ({ cdHttps, cdId, token }) => {
      const url = `${cdHttps}/cds/${cdId}`;
      const read = await fetch(url);
      const cd = await read.json();
      const etag = read.headers.get('ETag');
      const write = await fetch(url, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'If-Match': etag, Authorization: `Bearer ${token}` },
        body: JSON.stringify({ ...cd, title: `${cd.title} (from a browser)` }),
      });
      const written = await write.json();
      return { read: read.status, etag, write: write.status, title: written.title };
    },
    { cdHttps, cdId, token },
  );
  const rmw = outcome.readModifyWrite;
  if (rmw.read !== 200 || !rmw.etag || rmw.write !== 200 || !rmw.title?.endsWith('(from a browser)'))
    outcome.problems.push(`the CD's read-modify-write over HTTPS: ${JSON.stringify(rmw)}`);

  // Twenty at a time: one after another, a browser stays under the budget (about 100 a second).
  outcome.refusal = await tab.evaluate(async (url) => {
    for (let sent = 0; sent < 3000; sent += 20) {
      const batch = Array.from({ length: 20 }, () => fetch(url, { cache: 'no-store' }));
      const refused = (await Promise.all(batch)).find((answer) => answer.status === 429);
      if (refused) {
        const body = await refused.json();
        return {
          sent: sent + 20,
          status: refused.status,
          retryAfter: refused.headers.get('Retry-After'),
          rateLimit: refused.headers.get('RateLimit'),
          error: body.error,
        };
      }
    }
    return { sent: 3000, status: 'never refused' };
  }, `${gamesHttp}/api/games/1`);
  const refusal = outcome.refusal;
  if (refusal.status !== 429 || !/^\d+$/.test(refusal.retryAfter ?? '') || !refusal.rateLimit)
    outcome.problems.push(`the 429 as a script reads it: ${JSON.stringify(refusal)}`);
} catch (error) {
  outcome.problems.push(error.message);
} finally {
  await browser.close();
  page.close();
}
outcome.ok = outcome.problems.length === 0;
console.log(JSON.stringify(outcome));
process.exit(outcome.ok ? 0 : 1);
