import { MessageCircleQuestion, X } from 'lucide-react';
import { memo, useId, useRef, useState, type KeyboardEvent } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { AskAnswer, AskQuestion, QuestionRequest } from '../../bridge/types';
import { isPending, type QuestionCard as QuestionCardState } from '../../state/decisions';
import { IconButton } from '../../ui/Button';
import { useCardFocus } from './focus';
import { ClosedOutcome } from './ClosedOutcome';
import { answerText, isSkipped } from './outcomes';

export interface QuestionCardProps {
  card: QuestionCardState;
  onAnswer: (q: QuestionRequest, answers: AskAnswer[]) => Promise<void>;
  onDismiss: (key: string) => void;
  onCheckAgain: (key: string) => void;
}

const empty = (): AskAnswer => ({ selected: [], text: '' });

/** An asktool call: every question with its options and a free-text answer; Submit or Skip. */
export const QuestionCard = memo(function QuestionCard({ card, onAnswer, onDismiss, onCheckAgain }: QuestionCardProps) {
  const q = card.request;
  const pending = isPending(card);
  const [answers, setAnswers] = useState<AskAnswer[]>(() => q.questions.map(empty));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BridgeError | null>(null);
  const id = useId();
  const rootRef = useRef<HTMLElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  useCardFocus(rootRef, outcomeRef, pending);

  const send = async (list: AskAnswer[]) => {
    if (busy || !pending) return;
    setBusy(true);
    setError(null);
    try {
      await onAnswer(q, list);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
    }
  };
  const submit = () => void send(answers.map((a) => ({ selected: a.selected, text: a.text.trim() })));
  const skip = () => void send([]);
  const set = (i: number, next: AskAnswer) => setAnswers((cur) => cur.map((a, j) => (j === i ? next : a)));

  const n = q.questions.length;
  const titleId = `${id}-title`;
  const title = pending ? (n === 1 ? 'The agent asks' : `The agent asks ${n} questions`) : n === 1 ? 'Question' : `${n} questions`;

  return (
    <section ref={rootRef} className={`decision-card decision-question${pending ? '' : ' is-resolved'}`} aria-labelledby={titleId} data-question-id={q.questionId}>
      <header className="decision-head">
        <MessageCircleQuestion size={15} aria-hidden="true" />
        <h3 id={titleId} className="decision-title">
          {title}
        </h3>
        {!pending && (
          <IconButton label="Dismiss" className="decision-dismiss" onClick={() => onDismiss(card.key)}>
            <X size={14} aria-hidden="true" />
          </IconButton>
        )}
      </header>
      {pending ? (
        <>
          {q.questions.map((question, i) => (
            <QuestionField
              key={i}
              name={`${id}-q${i}`}
              question={question}
              answer={answers[i] ?? empty()}
              first={i === 0}
              disabled={busy}
              onChange={(a) => set(i, a)}
              onSubmit={submit}
            />
          ))}
          <div className="decision-actions" role="group" aria-label="Answer">
            <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={submit}>
              {busy ? 'Sending…' : n === 1 ? 'Submit answer' : 'Submit answers'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={skip}>
              Skip
            </button>
          </div>
          <p className="decision-gate">The agent waits for your answer. Stop ends the turn and skips the questions.</p>
          {error && (
            <p className="inline-error" role="alert">
              <code className="error-code">{error.code}</code> {error.message}
            </p>
          )}
        </>
      ) : (
        <div ref={outcomeRef} tabIndex={-1} className="decision-outcome-block" role="status">
          <QuestionOutcome card={card} onCheckAgain={onCheckAgain} />
        </div>
      )}
    </section>
  );
});

function QuestionOutcome({ card, onCheckAgain }: { card: QuestionCardState; onCheckAgain: (key: string) => void }) {
  const q = card.request;
  if (card.closedBy) {
    return <ClosedOutcome label="Not sent" closedBy={card.closedBy} onCheckAgain={() => onCheckAgain(card.key)} />;
  }
  const stopped = q.state === 'skipped';
  const skipped = stopped || isSkipped(q.answers);
  return (
    <div>
      <p className={`decision-outcome ${skipped ? 'outcome-skipped' : 'outcome-answered'}`}>
        {stopped ? 'Skipped — the turn was stopped before an answer.' : skipped ? 'Skipped.' : 'Answered.'}
      </p>
      {!skipped && (
        <dl className="ask-summary">
          {q.questions.map((question, i) => (
            <div key={i} className="ask-summary-row">
              <dt>{question.question}</dt>
              <dd>{answerText(q.answers[i]) || <span className="muted">Skipped</span>}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

interface QuestionFieldProps {
  name: string;
  question: AskQuestion;
  answer: AskAnswer;
  first: boolean;
  disabled: boolean;
  onChange: (a: AskAnswer) => void;
  onSubmit: () => void;
}

function QuestionField({ name, question, answer, first, disabled, onChange, onSubmit }: QuestionFieldProps) {
  const multi = question.multiSelect;
  const groupRef = useRef<HTMLDivElement>(null);
  const textId = `${name}-text`;
  const hasOptions = question.options.length > 0;

  const choose = (label: string, on: boolean) => {
    const selected = multi
      ? on
        ? question.options.map((o) => o.label).filter((l) => l === label || answer.selected.includes(l))
        : answer.selected.filter((l) => l !== label)
      : on
        ? [label]
        : [];
    onChange({ ...answer, selected });
  };

  // Arrows move between the options (and choose, for a single choice), Space toggles
  // natively, Enter submits the card: it must never reach the composer form around us.
  const onOptionKey = (e: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onSubmit();
      return;
    }
    const delta = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (delta === 0) return;
    e.preventDefault();
    const count = question.options.length;
    const next = (index + delta + count) % count;
    groupRef.current?.querySelectorAll<HTMLInputElement>('input')[next]?.focus();
    const opt = question.options[next];
    if (!multi && opt) choose(opt.label, true);
  };

  const onTextKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onSubmit();
    }
  };

  // One tab stop per single-choice group: the chosen option, else the first.
  const tabStop = multi ? -1 : Math.max(0, question.options.findIndex((o) => answer.selected.includes(o.label)));

  return (
    <fieldset className="ask-question" disabled={disabled}>
      <legend className="ask-legend">{question.question}</legend>
      {hasOptions && (
        <>
          <p className="ask-hint">{multi ? 'Choose any that apply.' : 'Choose one.'}</p>
          <div ref={groupRef} className="ask-options">
            {question.options.map((o, i) => {
              const optId = `${name}-o${i}`;
              const checked = answer.selected.includes(o.label);
              return (
                <label key={o.label} className={`ask-option${checked ? ' is-checked' : ''}`}>
                  <input
                    type={multi ? 'checkbox' : 'radio'}
                    name={name}
                    checked={checked}
                    tabIndex={multi || i === tabStop ? 0 : -1}
                    aria-labelledby={`${optId}-label`}
                    aria-describedby={o.description ? `${optId}-desc` : undefined}
                    data-autofocus={first && (multi ? i === 0 : i === tabStop) ? '' : undefined}
                    onChange={(e) => choose(o.label, e.target.checked)}
                    onKeyDown={(e) => onOptionKey(e, i)}
                  />
                  <span className="ask-option-text">
                    <span id={`${optId}-label`} className="ask-option-label">
                      {o.label}
                    </span>
                    {o.description && (
                      <span id={`${optId}-desc`} className="ask-option-desc">
                        {o.description}
                      </span>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
          {!multi && answer.selected.length > 0 && (
            <button type="button" className="btn btn-ghost btn-sm ask-clear" onClick={() => onChange({ ...answer, selected: [] })}>
              Clear choice
            </button>
          )}
        </>
      )}
      <label className="ask-text-label" htmlFor={textId}>
        {hasOptions ? 'Or answer in your own words' : 'Your answer'}
      </label>
      <textarea
        id={textId}
        className="ask-text"
        rows={2}
        value={answer.text}
        data-autofocus={first && !hasOptions ? '' : undefined}
        placeholder={hasOptions ? 'Optional' : 'Type your answer'}
        onChange={(e) => onChange({ ...answer, text: e.target.value })}
        onKeyDown={onTextKey}
      />
    </fieldset>
  );
}
