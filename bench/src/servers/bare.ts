// The machine's limit: a bare node:http server answering the service's captured bytes (status,
// headers, body) to any request.
import { createServer } from 'node:http';
import { listen, readCaptured } from './captured.js';

const { status, headers, body } = readCaptured();
const head = { ...headers, 'content-length': String(body.length) };
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(status, head);
    res.end(body);
  });
});
listen(server, 'bare replay');
