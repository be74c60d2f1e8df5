export interface ToggleProps {
  id?: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  describedBy?: string;
}

/** An on/off switch (role=switch). The visible label is rendered by the caller or via aria-label. */
export function Toggle({ id, label, checked, onChange, describedBy }: ToggleProps) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      className={checked ? 'toggle toggle-on' : 'toggle'}
      onClick={() => onChange(!checked)}
    >
      <span className="toggle-thumb" aria-hidden="true" />
    </button>
  );
}
