// Flow 12: an MCP server end to end. Settings → MCP servers: add the reference "everything"
// server (a real npm package over stdio, run by this Node), Test lists its tools, Add
// saves it and it turns ready with its tool count. In a session the composer's MCP picker
// gives the next prompt its tools: the model is offered mcp_everything_echo, calls it, the
// card names the server and the tool ("MCP server tool requires approval"), Allow once runs
// it on the real server, the transcript's row names the server and the tool with the echoed
// result, and the model gets that result. A second prompt picks one long-running tool: its
// row shows the server's progress notifications live, then the result. A third picks the
// image tool: the row shows the stored picture (served from the attachments route, opened
// larger in a dialog) and the model, which is not known to see images, is told so in words.
import { expect, test } from '../fixtures/test';
import { everythingStdio } from '../fixtures/mcpServers';

const MESSAGE = 'hello from the e2e flow';
const ECHOED = `Echo: ${MESSAGE}`;
const LONG_TOOL = 'mcp_everything_trigger-long-running-operation';
const IMAGE_TOOL = 'mcp_everything_get-tiny-image';

test('add a stdio server, test it, let the agent call its tools, see a long call’s progress', async ({ ui, workspace, provider, shot, axe }) => {
  const server = everythingStdio();
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  const mcp = await ui.openMCPSettings();
  await expect(mcp.getByText('No MCP server yet.')).toBeVisible();
  await mcp.getByRole('button', { name: 'Add server' }).click();
  const form = mcp.getByRole('form', { name: 'Add an MCP server' });
  await form.getByRole('textbox', { name: 'Name' }).fill('everything');
  await expect(form.getByRole('combobox', { name: 'Transport' })).toHaveValue('stdio');
  await form.getByRole('textbox', { name: 'Command' }).fill(server.command);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(server.args.join('\n'));
  await shot('add form');

  // Test connects to the real server and lists what it offers, without saving anything.
  await form.getByRole('button', { name: 'Test', exact: true }).click();
  const outcome = form.getByRole('status').filter({ hasText: 'Connected' });
  await expect(outcome).toContainText(/Connected: \d+ tools/);
  const found = form.getByRole('list', { name: 'Tools found' }).getByRole('listitem');
  await expect(found.filter({ hasText: /^echo — Echo Tool/ })).toHaveCount(1);
  await expect(found.filter({ hasText: /^get-sum\b/ })).toHaveCount(1);
  const toolsFound = await found.count();
  await expect(mcp.getByRole('list', { name: 'App servers' })).toHaveCount(0);
  await shot('test lists the tools');

  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toHaveCount(0);
  const item = mcp.getByRole('list', { name: 'App servers' }).getByRole('listitem', { name: 'everything', exact: true });
  await expect(item.locator('.mcp-state')).toHaveText('Ready');
  await expect(item).toContainText(`stdio · App · ${toolsFound} tools`);
  await expect(item.locator('.mcp-target')).toHaveText(`${server.command} ${server.args.join(' ')}`);
  await shot('saved and ready');
  await axe('Settings → MCP servers with a ready server');

  // The composer's picker gives the next prompt the server's tools.
  await ui.closeSettings();
  await ui.openSession(workspace.name);
  const chip = await ui.chooseMCPServer('everything', async (picker) => {
    await expect(picker.getByRole('list', { name: 'Tools of everything' }).getByRole('checkbox', { name: /^echo\b/ })).toBeVisible();
    await shot('mcp picker');
  });
  await expect(chip).toHaveText('everything');

  provider.enqueue(
    { text: 'Asking the server.', toolCalls: [{ id: 'call_echo', name: 'mcp_everything_echo', args: { message: MESSAGE } }] },
    { text: 'The server echoed your message.' },
  );
  await ui.send('Echo a greeting through the everything server');
  const first = await provider.waitForRequest(0);
  expect(first.toolNames).toContain('mcp_everything_echo');
  // The choice went with that one prompt.
  await expect(ui.composer.locator('.chip-mcp-selected')).toHaveCount(0);

  const card = await ui.pendingCard('echo (Echo Tool) from everything');
  await expect(card.locator('.approval-reason')).toHaveText('MCP server tool requires approval');
  // Not coloured as risky: no outside path, no protected path, no command.
  await expect(card.locator('.badge-risk')).toHaveCount(0);
  await expect(card.getByLabel('Preview')).toContainText(MESSAGE);
  await shot('mcp card');

  await ui.answer('echo (Echo Tool) from everything', 'Allow once');
  await expect(ui.tools('mcp_everything_echo').locator('.tool-approval')).toHaveText('Allowed once by you');
  await expect(ui.assistantText().last()).toHaveText('The server echoed your message.');
  await ui.waitIdle();

  const row = ui.tools('mcp_everything_echo');
  await expect(row).toHaveCount(1);
  const head = row.locator('.tool-head');
  await expect(head.locator('.tool-mcp-server')).toHaveText('everything');
  await expect(head.locator('.tool-name')).toContainText('echo — Echo Tool');
  await expect(head.locator('.tool-name')).not.toContainText('mcp_everything');
  await expect(head.locator('.tool-status')).toHaveText('Done');
  await head.click();
  await expect(row.getByRole('region', { name: 'Result' }).or(row.getByLabel('Result'))).toContainText(ECHOED);
  await shot('tool row with the result');

  const second = await provider.waitForRequest(1);
  expect(second.toolResult('call_echo')).toContain(ECHOED);

  // A long call shows the server's progress live on its row. This prompt gets one chosen tool.
  const picked = await ui.chooseMCPServer('everything', async (picker) => {
    await picker.getByRole('list', { name: 'Tools of everything' }).getByRole('checkbox', { name: /^trigger-long-running-operation\b/ }).check();
  });
  await expect(picked).toHaveText('everything: trigger-long-running-operation');
  provider.enqueue(
    { toolCalls: [{ id: 'call_long', name: LONG_TOOL, args: { duration: 4, steps: 4 } }] },
    { text: 'The long operation finished.' },
  );
  await ui.send('Run the long operation');
  expect((await provider.waitForRequest(2)).toolNames).toContain(LONG_TOOL);
  await ui.answer('trigger-long-running-operation (Trigger Long Running Operation Tool) from everything', 'Allow once');
  const long = ui.tools(LONG_TOOL);
  await expect(long.getByRole('status')).toHaveText(/^progress [1-3]\/4$/);
  await shot('progress on the row');
  await expect(ui.assistantText().last()).toHaveText('The long operation finished.');
  await ui.waitIdle();
  await expect(long.locator('.tool-status')).toHaveText('Done');
  await expect(long.getByRole('status')).toHaveCount(0);
  expect((await provider.waitForRequest(3)).toolResult('call_long')).toContain('Long running operation completed. Duration: 4 seconds, Steps: 4.');
  await shot('long call done');

  // An image result: the row shows it from the content-addressed store; the model gets a note.
  await ui.chooseMCPServer('everything', async (picker) => {
    await picker.getByRole('list', { name: 'Tools of everything' }).getByRole('checkbox', { name: /^get-tiny-image\b/ }).check();
  });
  provider.enqueue({ toolCalls: [{ id: 'call_image', name: IMAGE_TOOL, args: {} }] }, { text: 'I was told about the image.' });
  await ui.send('Show me the tiny image');
  expect((await provider.waitForRequest(4)).toolNames).toContain(IMAGE_TOOL);
  await ui.answer('get-tiny-image (Get Tiny Image Tool) from everything', 'Allow once');
  await expect(ui.assistantText().last()).toHaveText('I was told about the image.');
  await ui.waitIdle();
  const pictured = ui.tools(IMAGE_TOOL);
  const thumb = pictured.getByRole('button', { name: /^Open Image from get-tiny-image \(\d+×\d+\)$/ });
  await expect(thumb).toBeVisible();
  const img = thumb.locator('img');
  await expect(img).toHaveAttribute('src', /^\/_attachments\/[0-9a-f]{64}$/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  await shot('image result on the row');
  await thumb.click();
  const viewer = ui.page.getByRole('dialog', { name: /^Image from get-tiny-image/ });
  await expect(viewer.locator('img.tool-image-full')).toBeVisible();
  await ui.page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(thumb).toBeFocused();
  const told = (await provider.waitForRequest(5)).toolResult('call_image');
  expect(told).toContain('The image above is the MCP logo.');
  expect(told).toMatch(/\[image image\/png \d+×\d+ — the current model cannot see images/);
  expect(told).not.toContain('iVBORw0KGgo');
});
