import { FlaskConical, FolderInput, FolderPlus } from 'lucide-react';
import { useState } from 'react';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { AddProjectByPathDialog } from '../sidebar/AddProjectByPath';
import { TEMPORARY_HINT } from '../sidebar/Sidebar';

export function Welcome() {
  const ws = useWorkspace();
  const hasProjects = ws.state.projects.length > 0;
  const [byPath, setByPath] = useState(false);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-card">
        <h1 id="welcome-title">What are we working on?</h1>
        <p className="muted">
          {hasProjects
            ? 'Pick a session in the sidebar, start a new one in a project, or try something in a temporary session.'
            : 'Add a project folder so the agent can read and change its files, or start a temporary session in a private scratch folder.'}
        </p>
        <div className="welcome-actions">
          <Button variant="primary" icon={<FolderPlus size={16} aria-hidden="true" />} onClick={() => void ws.addProject()}>
            Add project
          </Button>
          <Button icon={<FlaskConical size={16} aria-hidden="true" />} title={TEMPORARY_HINT} onClick={() => void ws.newSession('')}>
            Start a temporary session
          </Button>
        </div>
        <p className="welcome-alt">
          <Button variant="ghost" size="sm" icon={<FolderInput size={14} aria-hidden="true" />} onClick={() => setByPath(true)}>
            Add project by path…
          </Button>
        </p>
        {byPath && <AddProjectByPathDialog onClose={() => setByPath(false)} />}
      </div>
    </section>
  );
}
