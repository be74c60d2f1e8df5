import { ChevronDown, ShieldCheck } from 'lucide-react';
import type { OperatingMode, PermissionMode, Session } from '../../bridge/types';
import { PERMISSION_MODES, effectivePermissionMode, permissionModeLabel } from '../../lib/labels';
import { useMenu } from '../../ui/Menu';
import { Segmented, type SegmentedOption } from '../../ui/Segmented';

// What each mode changes (spec §10): Plan and Goal refuse Write/Edit in the host, but
// Bash stays available to them under the permission mode.
export const OPERATING_MODES: ReadonlyArray<SegmentedOption<OperatingMode>> = [
  { value: 'agent', label: 'Agent', hint: 'Reads, edits files and runs commands; the permission mode decides what asks first.' },
  {
    value: 'plan',
    label: 'Plan',
    hint: 'Investigates and proposes a plan for you to approve, then carries it out in Agent. Cannot edit files; commands follow the permission mode.',
  },
  {
    value: 'goal',
    label: 'Goal',
    hint: 'Agrees with you on a goal and checkable acceptance criteria, then works in Agent until each is met. Like Plan, cannot edit files before you approve.',
  },
];

export function ModeSelector({ session, onChange }: { session: Session; onChange: (mode: OperatingMode) => void }) {
  const value = (OPERATING_MODES.find((m) => m.value === session.operatingMode)?.value ?? 'agent') as OperatingMode;
  return <Segmented label="Operating mode" value={value} options={OPERATING_MODES} onChange={(m) => m !== value && onChange(m)} />;
}

export interface PermissionChipProps {
  session: Session;
  defaultMode: PermissionMode | undefined;
  onChange: (mode: PermissionMode) => void;
}

/**
 * The session's effective permission mode (spec §6): its own unless it inherits, else
 * the global default. The menu offers the three modes; choosing one stores it as the
 * session's override.
 */
export function PermissionChip({ session, defaultMode, onChange }: PermissionChipProps) {
  const effective = effectivePermissionMode(session.permissionMode, defaultMode);
  const inherited = effective !== session.permissionMode;
  const menu = useMenu(
    'Permission mode',
    PERMISSION_MODES.map((m) => ({
      label: m.label,
      description: m.description,
      checked: m.value === effective,
      onSelect: () => {
        if (m.value !== session.permissionMode) onChange(m.value);
      },
    })),
  );
  const planAuto = effective === 'auto' && (session.operatingMode === 'plan' || session.operatingMode === 'goal');
  const title = [
    inherited ? `Permission mode: ${permissionModeLabel(effective)} (the default from Settings)` : `Permission mode: ${permissionModeLabel(effective)}`,
    planAuto ? 'In Plan and Goal, Auto lets commands change files without asking.' : '',
  ]
    .filter(Boolean)
    .join('. ');
  return (
    <>
      <button
        type="button"
        className={`chip chip-permission mode-${effective}${planAuto ? ' is-warning' : ''}`}
        aria-label={`Permission mode: ${permissionModeLabel(effective)}`}
        title={title}
        {...menu.triggerProps}
      >
        <ShieldCheck size={13} aria-hidden="true" />
        <span>{permissionModeLabel(effective)}</span>
        <ChevronDown size={12} aria-hidden="true" />
      </button>
      {menu.menu}
    </>
  );
}
