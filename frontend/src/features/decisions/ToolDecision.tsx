// How the transcript shows the decision tools once their turn has moved on: an asktool
// call as its questions and answers, a SubmitPlan/SubmitGoal call as the decision taken
// on the plan (the Markdown on demand). Used by ToolBlock.
import type { AskAnswer, ToolResult } from '../../bridge/types';
import type { ToolItem } from '../../state/transcript';
import { Markdown } from '../transcript/Markdown';
import './decisions.css';
import { answerText, kindLabel, proposalOutcome } from './outcomes';

const ASK = 'asktool';
const SUBMIT: Record<string, 'plan' | 'goal'> = { SubmitPlan: 'plan', SubmitGoal: 'goal' };

export function isDecisionTool(tool: string): boolean {
  return tool === ASK || tool in SUBMIT;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

interface AskedQuestion {
  question: string;
  answer: AskAnswer | null;
}

/** The questions of an asktool call, with their answers once the result is in. */
function askRows(item: ToolItem): AskedQuestion[] {
  const asked = Array.isArray(rec(item.args).questions) ? (rec(item.args).questions as unknown[]) : [];
  let answered: unknown[] = [];
  if (item.result?.ok && item.result.content) {
    try {
      const parsed = rec(JSON.parse(item.result.content) as unknown);
      if (Array.isArray(parsed.answers)) answered = parsed.answers;
    } catch {
      // not the structured answer list: show the questions only
    }
  }
  const n = Math.max(asked.length, answered.length);
  return Array.from({ length: n }, (_, i) => {
    const a = rec(answered[i]);
    const question = str(a.question) || str(rec(asked[i]).question);
    if (answered[i] === undefined) return { question, answer: null };
    const selected = Array.isArray(a.selected) ? a.selected.filter((x): x is string => typeof x === 'string') : [];
    return { question, answer: { selected, text: str(a.text) } };
  });
}

function planDecision(r: ToolResult | null): string {
  return r?.decision ?? '';
}

/** The call's one-line target: the first question, or the plan's title. */
export function decisionTarget(item: ToolItem): string {
  const args = rec(item.args);
  if (item.tool === ASK) {
    const rows = askRows(item);
    const first = rows[0]?.question ?? '';
    return rows.length > 1 ? `${first} (+${rows.length - 1} more)` : first;
  }
  return str(args.title) || item.result?.path || '';
}

/** The status word once settled ("Answered", "Approved", …); null leaves the default. */
export function decisionStatus(item: ToolItem): string | null {
  if (item.status === 'running') return 'Waiting for you';
  const r = item.result;
  if (!r) return null;
  if (item.tool === ASK) {
    if (!r.ok) return null;
    const rows = askRows(item);
    return r.fields.skipped === true || rows.every((x) => answerText(x.answer ?? undefined) === '') ? 'Skipped' : 'Answered';
  }
  switch (planDecision(r)) {
    case 'approved':
      return 'Approved';
    case 'rejected':
      return 'Rejected';
    case 'cancelled':
      return 'Cancelled';
    case 'interrupted':
      return 'Interrupted';
    default:
      return null;
  }
}

/** The compact line(s) under the call's head: answers, or the decision on the plan. */
export function DecisionSummary({ item }: { item: ToolItem }) {
  const r = item.result;
  if (!r) return null;
  if (item.tool === ASK) {
    if (!r.ok) return null;
    const rows = askRows(item);
    if (rows.every((x) => answerText(x.answer ?? undefined) === '')) return null;
    return (
      <dl className="ask-summary tool-decision" aria-label="Answers">
        {rows.map((row, i) => (
          <div key={i} className="ask-summary-row">
            <dt>{row.question}</dt>
            <dd>{answerText(row.answer ?? undefined) || <span className="muted">Skipped</span>}</dd>
          </div>
        ))}
      </dl>
    );
  }
  const decision = planDecision(r);
  if (!decision) return null;
  const feedback = str(r.fields.feedback);
  return (
    <div className="tool-decision">
      <p className={`decision-outcome outcome-${decision}`}>
        {proposalOutcome(SUBMIT[item.tool] ?? 'plan', decision, str(r.fields.permissionMode), r.path)}
      </p>
      {feedback && <blockquote className="decision-feedback selectable">{feedback}</blockquote>}
    </div>
  );
}

/** The expanded view of a SubmitPlan/SubmitGoal call: the document as submitted. */
export function DecisionDetails({ item }: { item: ToolItem }) {
  if (item.tool === ASK) return null;
  const markdown = str(rec(item.args).markdown);
  if (!markdown) return null;
  const kind = kindLabel(SUBMIT[item.tool] ?? 'plan');
  return (
    <div className="decision-document" tabIndex={0} role="region" aria-label={`${kind} document`}>
      <Markdown source={markdown} />
    </div>
  );
}
