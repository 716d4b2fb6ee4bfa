#!/usr/bin/env node
// The service images' HEALTHCHECK: exits 0 when the service on PORT answers GET /healthz with
// 200, else 1. node:http rather than fetch: loading fetch would double the CPU of every check,
// and Docker runs one every 10 s in every replica.
import { get } from 'node:http';

get({ host: '127.0.0.1', port: process.env.PORT, path: '/healthz' }, (answer) => {
  process.exit(answer.statusCode === 200 ? 0 : 1);
}).on('error', () => process.exit(1));
