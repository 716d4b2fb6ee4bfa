import { expect } from 'chai';
import {
  breakablePath,
  escapeHtml,
  inlineCode,
  kitFormatting,
  schemaJson,
  schemaRef,
} from '../src/formatting.js';

describe('the API reference helpers', () => {
  it('turns backtick spans into code and escapes everything else', () => {
    expect(inlineCode('Send `If-None-Match: "x"` <b>now</b> & `a<b>`')).to.equal(
      'Send <code>If-None-Match: &quot;x&quot;</code> &lt;b&gt;now&lt;/b&gt; &amp; <code>a&lt;b&gt;</code>',
    );
    expect(inlineCode('one ` unpaired, `` is empty')).to.equal(
      'one ` unpaired, `` is empty'.replace('` unpaired, `', '<code> unpaired, </code>'),
    );
    expect(inlineCode('5` of rope')).to.equal('5` of rope');
    expect(inlineCode('')).to.equal('');
  });

  it('lets a path break only after a slash, each segment whole and escaped', () => {
    expect(breakablePath('/api/games/top-rated')).to.equal(
      '/<span class="path-segment">api</span>/<wbr><span class="path-segment">games</span>/<wbr>' +
        '<span class="path-segment">top-rated</span>',
    );
    expect(breakablePath('/')).to.equal('/');
    expect(breakablePath('/a<b>/')).to.equal('/<span class="path-segment">a&lt;b&gt;</span>/<wbr>');
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).to.equal(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('names the component a $ref points to', () => {
    expect(schemaRef({ $ref: '#/components/schemas/Error' })).to.equal('Error');
    expect(schemaRef({ $ref: 'https://example.com/x.json' })).to.equal(undefined);
    expect(schemaRef({ type: 'object' })).to.equal(undefined);
    expect(schemaRef(undefined)).to.equal(undefined);
    expect(kitFormatting.schemaType({ $ref: '#/components/schemas/Game' })).to.equal('Game');
  });

  it('shows a schema as escaped JSON whose component references are links', () => {
    const html = schemaJson({
      type: 'array',
      description: '<script>',
      items: { $ref: '#/components/schemas/Error' },
    });
    expect(html).to.include('&lt;script&gt;');
    expect(html).to.not.include('<script>');
    expect(html).to.include(
      '&quot;$ref&quot;: <a href="#schema-Error">&quot;#/components/schemas/Error&quot;</a>',
    );
  });

  it('describes a parameter type in a few words', () => {
    expect(kitFormatting.schemaType({ type: 'integer', minimum: 1, maximum: 1000 })).to.equal(
      'integer, 1 to 1000',
    );
    expect(kitFormatting.schemaType({ type: 'integer', minimum: 0 })).to.equal(
      'integer, at least 0',
    );
    expect(kitFormatting.schemaType({ type: 'number', maximum: 10 })).to.equal(
      'number, at most 10',
    );
    expect(kitFormatting.schemaType({ enum: ['a', '-a'] })).to.equal('one of a, -a');
    expect(kitFormatting.schemaType({ type: ['number', 'null'] })).to.equal('number or null');
  });
});
