// The focus check itself (fixtures/focus.ts), on small pages and without the app: it
// passes a page whose every stop rings, and names each way a stop can fail — no ring, a
// ring only through a colour change, a ring cut off by a clipping box, a low-contrast
// ring (an outline, or a box-shadow on the element or the box around it), an element
// covered by a fixed bar — and a Tab trapped in a loop.
import { expect, test, type Page } from '@playwright/test';
import { focusFailures } from '../fixtures/focus';

const BASE = `<style>
  body { margin: 0; padding: 20px; background: #fff; font: 14px sans-serif; }
  :focus-visible { outline: 2px solid #2563eb; outline-offset: 1px; }
  button, input { margin: 6px; }
</style>`;

/** The failures of one check on the page made of body, or [] when it passes. */
async function failures(page: Page, body: string): Promise<string[]> {
  await page.setContent(`${BASE}${body}`);
  return (await focusFailures(page, 30)).failures;
}

test('passes rings drawn by the element, a box around it and a pseudo-element', async ({ page }) => {
  const found = await failures(
    page,
    `<button>Plain</button>
     <div class="box"><textarea aria-label="Message"></textarea></div>
     <button class="grip">Grip</button>
     <button class="lifted">Lifted</button>
     <style>
       textarea { outline: none; border: 1px solid #999; }
       .box:has(textarea:focus) { box-shadow: 0 0 0 2px #2563eb; }
       .grip { position: relative; }
       .grip:focus-visible { outline: none; }
       .grip::after { content: ''; position: absolute; left: 0; right: 0; bottom: -4px; height: 3px; background: transparent; }
       .grip:focus-visible::after { background: #2563eb; }
       .lifted { box-shadow: 0 1px 2px rgba(0, 0, 0, 0.1); }
       .lifted:focus-visible { outline: none; box-shadow: 0 1px 2px rgba(0, 0, 0, 0.1), 0 0 0 2px #2563eb; }
     </style>`,
  );
  expect(found).toEqual([]);
});

test('names each stop without a usable ring', async ({ page }) => {
  const found = await failures(
    page,
    `<button class="bare">Bare</button>
     <input class="tinted" aria-label="Tinted">
     <div class="clip"><button class="flush">Flush</button></div>
     <button class="faint">Faint</button>
     <button class="pale">Pale</button>
     <div class="field"><input aria-label="Boxed"></div>
     <button class="under">Under</button><div class="bar"></div>
     <style>
       .bare:focus-visible { outline: none; }
       .tinted { outline: none; border: 1px solid #999; }
       .tinted:focus { border-color: #2563eb; }
       .clip { overflow: hidden; }
       .flush { display: block; width: 100%; margin: 0; }
       .faint:focus-visible { outline-color: #e6e6e6; }
       .pale:focus-visible { outline: none; box-shadow: 0 0 0 2px rgba(37, 99, 235, 0.15); }
       .field input { outline: none; border: 0; }
       .field { border: 1px solid #999; }
       .field:focus-within { box-shadow: 0 0 0 2px #d4d4d4; }
       .under { position: fixed; right: 20px; bottom: 20px; }
       .bar { position: fixed; right: 0; bottom: 0; width: 200px; height: 100px; background: #333; }
     </style>`,
  );
  expect(found).toEqual([
    'no visible focus ring: <button class="bare"> "Bare"',
    'no visible focus ring: <input class="tinted"> "Tinted"',
    'focus ring cut off by div.clip: <button class="flush"> "Flush"',
    expect.stringMatching(/^focus ring contrast 1\.\d\d:1 \(rgb\(230, 230, 230\) on rgb\(255, 255, 255\)\): <button class="faint"> "Faint"$/),
    expect.stringMatching(/^focus ring contrast 1\.\d\d:1 \(box-shadow rgba\(37, 99, 235, 0\.15\) on rgb\(255, 255, 255\)\): <button class="pale"> "Pale"$/),
    expect.stringMatching(/^focus ring contrast 1\.\d\d:1 \(box-shadow rgb\(212, 212, 212\) on rgb\(255, 255, 255\)\): <input> "Boxed"$/),
    'focused element hidden by div.bar: <button class="under"> "Under"',
  ]);
});

test('names a Tab trapped in a loop', async ({ page }) => {
  const found = await failures(
    page,
    `<button>Before</button><button id="a">A</button><button id="b">B</button>
     <script>
       document.getElementById('b').addEventListener('keydown', (e) => {
         if (e.key === 'Tab') { e.preventDefault(); document.getElementById('a').focus(); }
       });
     </script>`,
  );
  expect(found).toEqual([expect.stringContaining('focus is trapped')]);
});
