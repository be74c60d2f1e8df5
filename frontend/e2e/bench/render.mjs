// Transcript render benchmark (make bench, section "render"), driven by bench/render.go.
// Opens a seeded long session in the real frontend served by the dev build, then scrolls
// it from the bottom to the top (through every page of earlier turns), and does the same scroll on the peer: the same messages
// as one static HTML page (no script), the floor a browser sets for that much content.
// Prints one JSON object: open times and frame-time statistics for both.
//
// usage: node render.mjs APP_URL SESSION_TITLE LAST_TEXT PEER_HTML ROUNDS
import { chromium } from 'playwright-core';

const [appURL, title, lastText, peerFile, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const FLAGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Scrolls el (or the page) from the bottom to the top, one step per animation frame, and
// returns every frame interval in ms. Runs inside the page.
const scrollScript = async ({ selector, step }) => {
  const el = selector ? document.querySelector(selector) : document.scrollingElement;
  el.scrollTop = el.scrollHeight;
  await new Promise((r) => setTimeout(r, 500));
  const frames = [];
  let last = performance.now();
  // At the top, wait up to a second for earlier turns to page in (the app keeps the
  // view in place, so scrollTop grows again), then go on scrolling up through them.
  let waited = 0;
  await new Promise((resolve) => {
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      if (el.scrollTop <= 0) {
        if (waited++ > 60) return resolve();
      } else {
        waited = 0;
        el.scrollTop = Math.max(0, el.scrollTop - step);
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return { frames: frames.slice(1), height: el.scrollHeight };
};

const browser = await chromium.launch({ executablePath: process.env.PI_E2E_CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
const out = { open: [], ours: [], peer: [], oursHeight: 0, peerHeight: 0, domRows: 0 };
try {
  for (let i = 0; i < rounds; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(appURL);
    const row = page.locator('.session-main', { hasText: title }).first();
    await row.waitFor({ timeout: 60_000 });
    const t0 = Date.now();
    await row.click();
    await page.getByText(lastText, { exact: false }).last().waitFor({ state: 'visible', timeout: 120_000 });
    out.open.push(Date.now() - t0);
    const r = await page.evaluate(scrollScript, { selector: '.transcript', step: 1200 });
    out.ours.push(r.frames);
    out.oursHeight = r.height;
    out.domRows = await page.locator('.transcript-row').count();
    await page.close();

    const peer = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await peer.goto(`file://${peerFile}`);
    const p = await peer.evaluate(scrollScript, { selector: '', step: 1200 });
    out.peer.push(p.frames);
    out.peerHeight = p.height;
    await peer.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out) + '\n');
