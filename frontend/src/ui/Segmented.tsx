// Segmented control with radio semantics: one tab stop, arrow keys move the choice.
import { useId, useRef, type KeyboardEvent } from 'react';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  /** One line on what choosing it changes: the option's accessible description, shown while it is hovered or focused. */
  hint?: string;
}

export interface SegmentedProps<T extends string> {
  label: string;
  value: T;
  options: ReadonlyArray<SegmentedOption<T>>;
  onChange: (value: T) => void;
  describedBy?: string;
  invalid?: boolean;
}

export function Segmented<T extends string>({ label, value, options, onChange, describedBy, invalid }: SegmentedProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const idBase = useId();
  const index = options.findIndex((o) => o.value === value);

  const onKeyDown = (e: KeyboardEvent) => {
    const delta = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (delta === 0) return;
    e.preventDefault();
    const next = (Math.max(index, 0) + delta + options.length) % options.length;
    const opt = options[next];
    if (!opt) return;
    onChange(opt.value);
    ref.current?.querySelectorAll<HTMLElement>('[role="radio"]')[next]?.focus();
  };

  return (
    <div
      ref={ref}
      role="radiogroup"
      aria-label={label}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      className="segmented"
      onKeyDown={onKeyDown}
    >
      {options.map((o, i) => {
        const checked = o.value === value;
        return (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-describedby={o.hint ? `${idBase}-${i}` : undefined}
            tabIndex={checked || (index < 0 && i === 0) ? 0 : -1}
            className={checked ? 'segment segment-on' : 'segment'}
            onClick={() => onChange(o.value)}
          >
            {o.label}
            {o.hint && (
              // aria-hidden keeps the hint out of the name; aria-describedby still reads it.
              <span id={`${idBase}-${i}`} className="segment-hint" aria-hidden="true">
                {o.hint}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
