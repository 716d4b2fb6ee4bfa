import { expect } from 'chai';
import type { Page } from 'playwright-core';

type Paths = Record<string, Record<string, { operationId: string }>>;

/**
 * Checks the API reference at `${url}/docs` against the service's own `/openapi.json`: a
 * section and a table-of-contents link per operation, no description showing literal backticks
 * (they are rendered as code), every `$ref` link leading to the schema's section, and a folded
 * schema that opens.
 */
export async function expectApiReference(page: Page, url: string): Promise<void> {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Paths };
  await page.goto(`${url}/docs`);
  const headings = await page.locator('.operation h2').allTextContents();
  const toc = page.getByRole('navigation', { name: 'Operations' }).getByRole('link');
  let operations = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations++;
      expect(headings).to.include(`${method.toUpperCase()} ${path}`);
      expect(await page.locator(`section#${op.operationId}`).count(), op.operationId).to.equal(1);
    }
  }
  expect(await toc.count()).to.equal(operations);

  const backticks = await page.locator('.operation p, .params td, .responses dd').allTextContents();
  expect(backticks.filter((text) => text.includes('`'))).to.deep.equal([]);

  const targets = await page
    .locator('a[href^="#schema-"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(targets.length, 'links to the schemas').to.be.above(0);
  for (const target of new Set(targets)) {
    expect(await page.locator(target).count(), target).to.equal(1);
  }
  await page.locator('a[href^="#schema-"]').first().click();
  await page.waitForURL(/#schema-/);

  const schemas = page.locator('details.schema');
  const closed = await schemas.evaluateAll((all) =>
    all.findIndex((el) => !el.hasAttribute('open')),
  );
  expect(closed, 'a folded schema').to.be.at.least(0);
  const folded = schemas.nth(closed);
  await folded.locator('summary').click();
  expect(await folded.locator('pre').isVisible()).to.equal(true);
}
