// Flow 19 (issue 23): an image pasted into the composer (a real ClipboardEvent carrying
// a PNG File, as Chromium delivers a screenshot paste) becomes a chip with its thumbnail,
// and the prompt reaches a model that accepts images (gpt-4o, by the app's own catalogue)
// as an image block of exactly those bytes, with the copy's @ path. The first answer
// fails; Retry sends the same image again.
import { deflateSync } from 'node:zlib';
import { expect, test } from '../fixtures/test';

test.use({ model: 'gpt-4o' });

/** A small RGB PNG (within every provider limit, so the app sends its bytes unchanged). */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      rows[o] = (x * 8) & 0xff;
      rows[o + 1] = (y * 8) & 0xff;
      rows[o + 2] = 160;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

test('a pasted image reaches the model as an image block, and again on Retry', async ({ page, ui, workspace, provider, shot }) => {
  const image = png(48, 32);
  const b64 = image.toString('base64');
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);

  // What Chromium dispatches for a pasted screenshot: a paste event whose clipboardData
  // holds one image File.
  await ui.message.focus();
  await page.evaluate((data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    const target = document.activeElement;
    if (!(target instanceof HTMLTextAreaElement)) throw new Error('the composer is not focused');
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, b64);
  const chips = ui.composer.getByRole('list', { name: 'Attachments' });
  const chip = chips.getByRole('listitem').filter({ hasText: 'image.png' });
  await expect(chip).toBeVisible();
  await expect(chip.locator('img.attachment-thumb')).toHaveJSProperty('naturalWidth', 48);
  await shot('pasted image chip');

  provider.enqueue({ status: 400, errorMessage: 'scripted failure' }, { text: 'A small gradient.' });
  await ui.send('What is in this picture?');
  await expect(chips).toHaveCount(0); // the chips went with the message

  const first = await provider.waitForRequest(0);
  expect(first.lastUserText()).toContain('What is in this picture?');
  expect(first.lastUserText()).toMatch(/@\S+\/pasted\/image\.png \(image\/png/);
  expect(first.lastUserImages()).toEqual([`data:image/png;base64,${b64}`]);

  const retry = ui.transcript.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeEnabled();
  await shot('failed turn');
  await retry.click();
  await expect(ui.assistantText().last()).toHaveText('A small gradient.');
  await ui.waitIdle();
  const second = await provider.waitForRequest(1);
  // The retried prompt carries the image again, once: the failed turn, which left the
  // model nothing, is not sent beside its retry.
  expect(second.lastUserImages()).toEqual([`data:image/png;base64,${b64}`]);
  expect(second.lastUserText().split('What is in this picture?')).toHaveLength(2);
  expect(second.lastUserText()).not.toContain('previous turn ended with an error');
  // The retried prompt shows its image like the first.
  await expect(ui.transcript.locator('.msg-user').last().locator('img')).toHaveCount(1);
  await shot('answered after retry');
});
