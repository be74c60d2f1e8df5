// Flow 7 (question card): the model asks with asktool; the card shows each question with
// its options and a free-text field; the user picks an option, adds words, types a free
// answer, picks several options, and submits. The card shows what was answered and the
// model receives the structured answers in the tool result.
import { expect, test } from '../fixtures/test';

const QUESTIONS = [
  {
    question: 'Which database should the service use?',
    options: [{ label: 'SQLite', description: 'One file, no server' }, { label: 'Postgres', description: 'A server you already run' }],
  },
  { question: 'What should the table be called?' },
  { question: 'Which logs do you want?', options: ['errors', 'requests', 'queries'], multiSelect: true },
];

test('a question card answered with an option, free text and several options', async ({ ui, workspace, provider, shot }) => {
  await ui.addProjectByPath(workspace.dir, workspace.name);
  await ui.newSession(workspace.name);
  provider.enqueue(
    { text: 'A few questions first.', toolCalls: [{ id: 'call_ask', name: 'asktool', args: { questions: QUESTIONS } }] },
    { text: 'Postgres it is, with a users_v2 table.' },
  );
  await ui.send('Set up the storage');

  const asking = ui.composer.getByRole('region', { name: 'The agent asks 3 questions' });
  await expect(asking).toBeVisible();
  // Keeps pointing at the card once answered (its heading changes then).
  const card = ui.composer.locator(`section[data-question-id="${await asking.getAttribute('data-question-id')}"]`);
  const db = card.getByRole('group', { name: 'Which database should the service use?' });
  const table = card.getByRole('group', { name: 'What should the table be called?' });
  const logs = card.getByRole('group', { name: 'Which logs do you want?' });
  await expect(db.getByRole('radio')).toHaveCount(2);
  await expect(db.getByRole('radio', { name: 'SQLite' })).toHaveAccessibleDescription('One file, no server');
  await expect(logs.getByRole('checkbox')).toHaveCount(3);
  await expect(table.getByRole('radio')).toHaveCount(0);
  // Nothing goes on while the card waits.
  await ui.page.waitForTimeout(300);
  expect(provider.requests).toHaveLength(1);
  await shot('question card');

  await db.getByRole('radio', { name: 'Postgres' }).check();
  await db.getByRole('textbox', { name: 'Or answer in your own words' }).fill('  version 16, please  ');
  await table.getByRole('textbox', { name: 'Your answer' }).fill('users_v2');
  await logs.getByRole('checkbox', { name: 'queries' }).check();
  await logs.getByRole('checkbox', { name: 'errors' }).check();
  await card.getByRole('button', { name: 'Submit answers' }).click();

  const outcome = card.getByRole('status');
  await expect(outcome).toContainText('Answered.');
  await expect(card.getByRole('heading', { name: '3 questions' })).toBeVisible();
  await expect(outcome.locator('dd')).toHaveText(['Postgres — version 16, please', 'users_v2', 'errors, queries']);
  await expect(ui.assistantText().last()).toHaveText('Postgres it is, with a users_v2 table.');
  await ui.waitIdle();
  await shot('answered');

  // The model got every answer, structured, in question order (options in their order).
  const result = JSON.parse((await provider.waitForRequest(1)).toolResult('call_ask')) as unknown;
  expect(result).toEqual({
    answers: [
      { question: 'Which database should the service use?', selected: ['Postgres'], text: 'version 16, please' },
      { question: 'What should the table be called?', selected: [], text: 'users_v2' },
      { question: 'Which logs do you want?', selected: ['errors', 'queries'], text: '' },
    ],
  });
});
