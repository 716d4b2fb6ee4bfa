// The baseline: a bare node:http server answering fixed bytes (status, headers, body) read
// from the file named by BARE_RESPONSE. It logs its URL like the services do.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const { status, headers, body } = JSON.parse(
  readFileSync(process.env.BARE_RESPONSE as string, 'utf8'),
);
const bytes = Buffer.from(body, 'base64');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(status, { ...headers, 'content-length': bytes.length });
    res.end(bytes);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(
    JSON.stringify({ message: 'bare server listening', url: `http://127.0.0.1:${port}` }),
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
