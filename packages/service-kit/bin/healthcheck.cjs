#!/usr/bin/env node
// The service images' HEALTHCHECK: exits 0 when the service on PORT answers GET /healthz with
// 200, else 1, saying why on stderr (Docker keeps it in the health log). Docker runs it every
// 10 s in every replica, so it loads as little as it can: CommonJS and node:http, not fetch
// (what each costs: bench/RESULTS.md).
const { get } = require('node:http');

const fail = (why) => {
  console.error(why);
  process.exit(1);
};
const port = process.env.PORT;
if (!port) fail('PORT is not set: the port of the service to check');
get({ host: '127.0.0.1', port, path: '/healthz' }, (answer) => {
  if (answer.statusCode === 200) process.exit(0);
  fail(`GET /healthz answered ${answer.statusCode}`);
}).on('error', (error) => fail(`GET /healthz: ${error.message}`));
