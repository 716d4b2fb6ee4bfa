import { expect } from 'chai';
import {
  type Current,
  evaluatePreconditions,
  parseEntityTag,
  parseHttpDate,
  parseTagCondition,
  readPreconditions,
} from '../src/preconditions.js';

const strong = (opaque: string) => ({ opaque, weak: false });
const weak = (opaque: string) => ({ opaque, weak: true });

describe('preconditions (RFC 9110 section 13.2.2)', () => {
  describe('reading', () => {
    it('reads a tag list: absent, *, tags weak and strong, empty elements', () => {
      expect(parseTagCondition(undefined)).to.equal(undefined);
      expect(parseTagCondition(' * ')).to.equal('*');
      expect(parseTagCondition('""')).to.deep.equal([strong('')]);
      expect(parseTagCondition('"3", W/"4",,"a,b" ,"5"')).to.deep.equal([
        strong('3'),
        weak('4'),
        strong('a,b'),
        strong('5'),
      ]);
    });

    for (const malformed of ['3', '"3" "4"', '"3', 'W/3', '*, "3"', 'w/"3"', '"a"b']) {
      it(`reads ${malformed} as unreadable`, () => {
        expect(parseTagCondition(malformed)).to.equal('unreadable');
      });
    }

    it('reads one ETag, and nothing that is not one', () => {
      expect(parseEntityTag('W/"a-b"')).to.deep.equal(weak('a-b'));
      expect(parseEntityTag('"3"')).to.deep.equal(strong('3'));
      for (const other of [undefined, '', '3', '"3", "4"']) {
        expect(parseEntityTag(other)).to.equal(undefined);
      }
    });

    it('reads the three forms of an HTTP-date and nothing else', () => {
      const time = Date.UTC(1994, 10, 6, 8, 49, 37);
      expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).to.equal(time);
      expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).to.equal(time);
      expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).to.equal(time);
      for (const loose of ['2100', '2100-01-01', 'Fri, 1 Jan 2100 00:00:00 +0000', 'soon']) {
        expect(parseHttpDate(loose)).to.equal(undefined);
      }
    });

    it("reads a request's headers once into its preconditions, leaving out what is absent", () => {
      expect(readPreconditions({})).to.deep.equal({});
      expect(
        readPreconditions({
          'if-match': '"1"',
          'if-none-match': '*',
          'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT',
          'if-unmodified-since': 'not a date',
        }),
      ).to.deep.equal({
        ifMatch: [strong('1')],
        ifNoneMatch: '*',
        ifModifiedSince: Date.UTC(1994, 10, 6, 8, 49, 37),
      });
    });
  });

  describe('evaluating', () => {
    const judge = (method: string, headers: Record<string, string>, current: Current) =>
      evaluatePreconditions(method, readPreconditions(headers), current);
    const at3: Current = { etag: '"3"' };
    const proceed = { outcome: 'proceed' };
    const notModified = { outcome: 'not-modified' };
    const failed = (field: string, reason: string) => ({ outcome: 'failed', field, reason });

    it('goes on without preconditions', () => {
      expect(judge('PUT', {}, at3)).to.deep.equal(proceed);
      expect(judge('GET', {}, {})).to.deep.equal(proceed);
    });

    it('compares If-Match strongly, and says why it fails', () => {
      expect(judge('PUT', { 'if-match': '"2", "3"' }, at3)).to.deep.equal(proceed);
      expect(judge('PUT', { 'if-match': '*' }, at3)).to.deep.equal(proceed);
      expect(judge('PUT', { 'if-match': '"2"' }, at3)).to.deep.equal(failed('If-Match', 'changed'));
      expect(judge('PUT', { 'if-match': 'W/"3"' }, at3)).to.deep.equal(failed('If-Match', 'weak'));
      expect(judge('GET', { 'if-match': '"3"' }, { etag: 'W/"3"' })).to.deep.equal(
        failed('If-Match', 'weak'),
      );
      expect(judge('GET', { 'if-match': '"3" "4"' }, at3)).to.deep.equal(
        failed('If-Match', 'unreadable'),
      );
    });

    it('compares If-None-Match weakly: 304 to GET and HEAD, 412 to other methods', () => {
      for (const ifNoneMatch of ['"3"', 'W/"3"', '"1", W/"3"', '*']) {
        expect(judge('GET', { 'if-none-match': ifNoneMatch }, at3)).to.deep.equal(notModified);
        expect(judge('HEAD', { 'if-none-match': ifNoneMatch }, at3)).to.deep.equal(notModified);
        expect(judge('DELETE', { 'if-none-match': ifNoneMatch }, at3)).to.deep.equal(
          failed('If-None-Match', 'matches'),
        );
      }
      expect(judge('GET', { 'if-none-match': '"4"' }, at3)).to.deep.equal(proceed);
    });

    it('judges If-Match before If-None-Match', () => {
      const both = { 'if-match': '"2"', 'if-none-match': '"3"' };
      expect(judge('GET', both, at3)).to.deep.equal(failed('If-Match', 'changed'));
    });

    it('takes an unreadable list as naming no tag on GET and HEAD, and as malformed on writes', () => {
      expect(judge('GET', { 'if-none-match': '3' }, at3)).to.deep.equal(proceed);
      expect(judge('PUT', { 'if-none-match': '3' }, at3)).to.deep.equal({
        outcome: 'malformed',
        field: 'If-None-Match',
      });
      expect(judge('DELETE', { 'if-match': 'W/3' }, at3)).to.deep.equal({
        outcome: 'malformed',
        field: 'If-Match',
      });
    });

    const lastModified = 'Sun, 06 Nov 1994 08:49:37 GMT';
    const before = 'Sun, 06 Nov 1994 08:49:36 GMT';

    it('judges the dates only against a Last-Modified, and only without the tag headers', () => {
      const dated: Current = { ...at3, lastModified };
      expect(judge('GET', { 'if-modified-since': lastModified }, dated)).to.deep.equal(notModified);
      expect(judge('GET', { 'if-modified-since': before }, dated)).to.deep.equal(proceed);
      expect(judge('GET', { 'if-modified-since': lastModified }, at3)).to.deep.equal(proceed);
      expect(
        judge('GET', { 'if-modified-since': lastModified, 'if-none-match': '"4"' }, dated),
      ).to.deep.equal(proceed);
      expect(judge('PUT', { 'if-modified-since': lastModified }, dated)).to.deep.equal(proceed);
      expect(judge('PUT', { 'if-unmodified-since': before }, dated)).to.deep.equal(
        failed('If-Unmodified-Since', 'changed'),
      );
      expect(judge('PUT', { 'if-unmodified-since': lastModified }, dated)).to.deep.equal(proceed);
      expect(
        judge('PUT', { 'if-unmodified-since': before, 'if-match': '"3"' }, dated),
      ).to.deep.equal(proceed);
    });
  });
});
