// Our own reader over raw-body and inflation: @koa/bodyparser decodes bad UTF-8 to U+FFFD, ignores charset and takes text/plain and empty bodies.
import bourne from '@hapi/bourne';
import createError from 'http-errors';
import inflate from 'inflation';
import getRawBody from 'raw-body';
import { BadRequest, type Context, type Operation } from 'service-kit';

// inflation's README documents the `encoding` option; its types name it `gzip`.
declare module 'inflation' {
  interface Options {
    encoding?: string;
  }
}

/** Koa's request with the parsed body where Koa's body parsers put it (koa declares no `body`). */
type ParsedRequest = Context['request'] & { body?: unknown };

/** The body jsonBody parsed, at ctx.request.body. */
export const requestBody = (ctx: Context): unknown => (ctx.request as ParsedRequest).body;

const UTF8 = new Set(['', 'utf-8', 'utf8']);
/** Refuses bytes that are not UTF-8 (a CESU-8 surrogate too) rather than writing U+FFFD for them. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** JSON text that is an object or an array (RFC 8259's whitespace first). */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** The body's bytes, decompressed as Content-Encoding says, at most `limit` of them. */
function readBytes(ctx: Context, limit: string): Promise<Buffer> {
  // Content codings are case-insensitive (RFC 9110); inflation knows them in lower case.
  const coding = ctx.get('Content-Encoding').toLowerCase() || 'identity';
  // Declared lengths are checked (400 when the body differs, 413 before reading when too long).
  const length = coding === 'identity' ? ctx.request.length : undefined;
  return getRawBody(inflate(ctx.req, { encoding: coding }), { limit, length });
}

/** JSON text as a value: only an object or an array, and never a `__proto__` key. */
function parseJson(text: string): unknown {
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) {
    throw new SyntaxError('invalid JSON, only supports object and array');
  }
  return bourne.parse(text, { protoAction: 'error' });
}

/**
 * Parses a JSON body into ctx.request.body, as Koa's body parsers do: 400 when there is none, it is malformed, its bytes
 * are not UTF-8 (decoded strictly, before parsing) or its Content-Encoding does not decode; 415
 * when it is not JSON, labelled with another charset or in an encoding we do not take (gzip,
 * deflate and br are taken); 413 when it is over `limit`, and the rest of it is not read. A
 * `__proto__` key is refused (400).
 */
export function jsonBody(limit = '100kb'): Operation['handler'] {
  return async (ctx, next) => {
    if (!ctx.request.length && ctx.get('Transfer-Encoding') === '') {
      throw new BadRequest('This needs a JSON object body');
    }
    if (!ctx.is('application/json')) {
      throw createError(415, 'The body must be JSON (Content-Type: application/json)');
    }
    const charset = ctx.request.charset.toLowerCase();
    if (!UTF8.has(charset)) {
      throw createError(415, `The body must be UTF-8 (charset=utf-8), not ${charset}`);
    }
    let bytes: Buffer;
    try {
      bytes = await readBytes(ctx, limit);
    } catch (error) {
      const { status, message } = error as { status?: unknown; message: string };
      if (status === 413) {
        throw createError(413, `The body is larger than ${limit}`);
      }
      if (status === 400) throw new BadRequest(`The body is not valid JSON: ${message}`);
      if (status === 415) throw createError(415, `The body cannot be read: ${message}`);
      const encoding = ctx.get('Content-Encoding');
      // zlib's own errors (a broken or truncated gzip, deflate or br body) carry no status.
      if (status === undefined && encoding !== '') {
        throw createError(400, `The body is not valid ${encoding} data: ${message}`);
      }
      throw error;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new BadRequest('The body is not valid UTF-8');
    }
    try {
      (ctx.request as ParsedRequest).body = parseJson(text);
    } catch (error) {
      const { message } = error as Error;
      throw new BadRequest(
        /prototype/.test(message)
          ? 'The body may not hold a __proto__ or constructor.prototype key'
          : `The body is not valid JSON: ${message}`,
      );
    }
    await next();
  };
}
