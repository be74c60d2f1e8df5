// Settings sections the palette can open: Settings is shown, then the section's heading
// (a legend or heading with this text) is scrolled to and its first control focused.

export const SETTINGS_SECTIONS = ['Models', 'MCP servers', 'Subagents', 'Permissions', 'Checkpoints', 'Agent', 'Appearance', 'About'] as const;

/** How long to wait for Settings to render the section (it loads its data first). */
const WAIT_MS = 2000;

/** The heading of a section in the shown Settings, by its text. */
export function findSection(name: string, root: ParentNode = document): HTMLElement | null {
  const pane = root.querySelector('.settings-pane');
  if (!pane) return null;
  const want = name.toLowerCase();
  for (const h of Array.from(pane.querySelectorAll<HTMLElement>('legend, h2, h3'))) {
    if (h.textContent?.trim().toLowerCase() === want) return h;
  }
  return null;
}

/** Once Settings shows the section: scrolls to it and focuses its first control. */
export function revealSection(name: string): void {
  const started = Date.now();
  const step = () => {
    const heading = findSection(name);
    if (!heading) {
      if (Date.now() - started < WAIT_MS) requestAnimationFrame(step);
      return;
    }
    heading.scrollIntoView?.({ block: 'start' });
    const box = heading.closest('fieldset, section') ?? heading.parentElement;
    const control = box?.querySelector<HTMLElement>('button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled)');
    control?.focus({ preventScroll: true });
  };
  requestAnimationFrame(step);
}
