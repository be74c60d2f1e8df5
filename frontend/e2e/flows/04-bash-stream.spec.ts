// Flow 4 (first part): an allowed Bash command streams its output into the transcript
// while it runs; the full output reaches the model and the command's effects are on disk.
import { expect, test } from '../fixtures/test';

// Prints, waits until the test creates go.flag (at most 20 s), prints again, writes a file.
const COMMAND = [
  'echo first-line',
  'echo to-stderr >&2',
  'for i in $(seq 1 400); do [ -e go.flag ] && break; sleep 0.05; done',
  'echo second-line',
  'echo made-by-bash > bash-out.txt',
].join('; ');

test('Bash output streams while the command runs', async ({ ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { toolCalls: [{ id: 'call_sh', name: 'Bash', args: { command: COMMAND, description: 'Print two lines' } }] },
    { text: 'The command printed two lines.' },
  );
  await ui.send('Run the script');

  const card = await ui.pendingCard('Bash');
  await expect(card.getByLabel('Preview')).toContainText('echo first-line');
  await card.getByRole('button', { name: 'Allow once' }).click();

  // Live: the first lines are on screen while the command still waits.
  const bash = ui.tools('Bash');
  const live = bash.getByLabel('Live output');
  await expect(live).toContainText('first-line');
  await expect(live.locator('.out-stderr')).toHaveText('to-stderr\n');
  await expect(bash.locator('.tool-status')).toHaveText('Running');
  await expect(live).not.toContainText('second-line');
  expect(workspace.exists('bash-out.txt')).toBe(false);
  await shot('output streaming');

  workspace.write('go.flag', '');
  await expect(bash.locator('.tool-status')).toHaveText('Done');
  await expect(ui.assistantText().last()).toHaveText('The command printed two lines.');
  await ui.waitIdle();
  expect(workspace.read('bash-out.txt')).toBe('made-by-bash\n');

  // The result shows both streams and the exit status; the model got the same output.
  await bash.getByRole('button', { expanded: false }).click();
  await expect(bash.getByLabel('stdout')).toHaveText('first-line\nsecond-line\n');
  await expect(bash.getByLabel('stderr')).toHaveText('to-stderr\n');
  await expect(bash.getByText('Exit status 0')).toBeVisible();
  await shot('command done');
  const result = (await provider.waitForRequest(1)).toolResult('call_sh');
  expect(result).toContain('first-line');
  expect(result).toContain('second-line');
  expect(result).toContain('to-stderr');
});

