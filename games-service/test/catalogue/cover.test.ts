import { expect } from 'chai';
import { coverSvg, escapeXml, genreColour, wrapTitle } from '../../src/catalogue/cover.js';
import { makeGame } from '../fixtures.js';
import { seededCatalogue } from '../helpers.js';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const ENTITY = /&(?:amp|lt|gt|quot|apos);/g;

/**
 * Throws unless `xml` is one well-formed element: tags nest and close, attribute values are
 * quoted, and text and values hold no `<` and no `&` that does not start an entity.
 */
function assertWellFormed(xml: string): void {
  const open: string[] = [];
  let roots = 0;
  for (const [token] of xml.matchAll(/<[^>]*>|[^<]+/g)) {
    if (!token.startsWith('<')) {
      expect(open, `text outside the root: ${token}`).to.not.be.empty;
      expect(token.replace(ENTITY, ''), token).to.not.match(/[<>&]/);
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][\w-]*)((?:\s+[A-Za-z][\w:-]*="[^"]*")*)\s*(\/?)>$/.exec(token);
    expect(tag, `malformed tag: ${token}`).to.not.equal(null);
    const [, closing, name, attributes, selfClosing] = tag as RegExpExecArray;
    expect((attributes ?? '').replace(ENTITY, ''), token).to.not.match(/[<&]/);
    if (closing) {
      expect(open.pop(), `unbalanced </${name}>`).to.equal(name);
    } else if (!selfClosing) {
      if (open.length === 0) roots++;
      open.push(name as string);
    } else if (open.length === 0) roots++;
  }
  expect(open, 'unclosed elements').to.deep.equal([]);
  expect(roots).to.equal(1);
}

describe('coverSvg', () => {
  const game = makeGame({ id: 42, title: 'Half-Life 2', genre: 'Shooter', releaseYear: 2004 });

  it('is deterministic: the same game gives the same bytes', () => {
    expect(coverSvg(game)).to.equal(coverSvg({ ...game }));
    expect(coverSvg(game)).to.not.equal(coverSvg({ ...game, title: 'Half-Life 3' }));
  });

  it('is an accessible, well-formed SVG image naming the game, its year and genre', () => {
    const svg = coverSvg(game);
    assertWellFormed(svg);
    expect(svg).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 300 400"/);
    expect(svg).to.include('role="img"');
    expect(svg).to.include('<title id="cover-42-title">Half-Life 2</title>');
    expect(svg).to.include('aria-labelledby="cover-42-title"');
    expect(svg).to.include('>2004<');
    expect(svg).to.include('>SHOOTER<');
  });

  it('escapes every XML special of the title and genre', () => {
    const svg = coverSvg(makeGame({ title: `<script>alert("x")&'</script>`, genre: 'A&B <i>' }));
    assertWellFormed(svg);
    expect(svg.toLowerCase()).to.not.include('<script');
    expect(svg).to.include('&lt;script&gt;alert(&quot;x&quot;)&amp;&apos;&lt;/script&gt;');
    expect(svg).to.include('A&amp;B &lt;I&gt;');
  });

  it('drops characters that XML cannot hold', () => {
    expect(escapeXml('a\u0000b\u001Bc\uFFFEd\tz')).to.equal('abcd\tz');
    assertWellFormed(coverSvg(makeGame({ title: 'Bad\u0007Bell' })));
  });

  it('refers to nothing outside itself', () => {
    const svg = coverSvg(makeGame({ title: 'http://example.com/x.png', genre: 'https' }));
    const rest = svg.replace(`xmlns="${SVG_NAMESPACE}"`, '').replace(/(?<=>)[^<]*(?=<)/g, '');
    expect(rest).to.not.include('http');
    expect(rest).to.not.match(/href|<image|<script|<foreignObject|@import|url\((?!#)/i);
  });

  it('wraps a long title onto lines and ellipsises what does not fit', () => {
    const title = 'The Elder Scrolls V: Skyrim Special Edition Anniversary Upgrade Pack';
    const svg = coverSvg(makeGame({ id: 7, title }));
    assertWellFormed(svg);
    const lines = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    expect(lines).to.deep.equal(wrapTitle(title));
    expect(svg).to.include(`<title id="cover-7-title">${title}</title>`);
  });
});

describe('wrapTitle', () => {
  it('keeps a short title on one line', () => {
    expect(wrapTitle('Portal')).to.deep.equal(['Portal']);
    expect(wrapTitle('  Half-Life  2 ')).to.deep.equal(['Half-Life 2']);
  });

  it('breaks between words into lines of at most 16 characters', () => {
    expect(wrapTitle('The Legend of Zelda: Breath of the Wild')).to.deep.equal([
      'The Legend of',
      'Zelda: Breath of',
      'the Wild',
    ]);
  });

  it('cuts a word longer than a line', () => {
    expect(wrapTitle('Supercalifragilisticexpialidocious Go')).to.deep.equal([
      'Supercalifragili',
      'sticexpialidocio',
      'us Go',
    ]);
  });

  it('keeps at most 4 lines, the last one ellipsised', () => {
    const lines = wrapTitle('one two three four five six seven eight nine ten eleven twelve');
    expect(lines).to.deep.equal([
      'one two three',
      'four five six',
      'seven eight nine',
      'ten eleven…',
    ]);
    const long = wrapTitle('A'.repeat(100));
    expect(long).to.have.length(4);
    expect(long[3]).to.equal(`${'A'.repeat(15)}…`);
    for (const line of long) expect([...line].length).to.be.at.most(16);
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    const lines = wrapTitle('🎮'.repeat(20));
    expect(lines).to.deep.equal(['🎮'.repeat(16), '🎮'.repeat(4)]);
  });
});

describe('genreColour', () => {
  const genres = seededCatalogue.genres;

  it('gives each genre of the seed its own colour', () => {
    const colours = genres.map(genreColour);
    expect(new Set(colours).size).to.equal(genres.length);
    for (const colour of colours) expect(colour).to.match(/^#[0-9a-f]{6}$/);
  });

  it('ignores case and surrounding spaces', () => {
    expect(genreColour(' rpg ')).to.equal(genreColour('RPG'));
  });

  it('derives a stable colour for an unknown genre', () => {
    expect(genreColour('Rhythm')).to.match(/^#[0-9a-f]{6}$/);
    expect(genreColour('Rhythm')).to.equal(genreColour('rhythm'));
    expect(genreColour('Rhythm')).to.not.equal(genreColour('Visual Novel'));
    expect(genres.map(genreColour)).to.not.include(genreColour('Rhythm'));
  });

  it('colours the cover from the genre', () => {
    expect(coverSvg(makeGame({ genre: 'Horror' }))).to.include(genreColour('Horror'));
    expect(coverSvg(makeGame({ id: 1, genre: 'Horror' }))).to.not.equal(
      coverSvg(makeGame({ id: 1, genre: 'Racing' })),
    );
  });
});
