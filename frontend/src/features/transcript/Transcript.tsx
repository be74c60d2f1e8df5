import { MessageSquareDashed } from 'lucide-react';

/** The conversation. Empty until the agent runtime lands. */
export function Transcript() {
  return (
    <div className="transcript" role="log" aria-label="Transcript">
      <div className="empty-state">
        <MessageSquareDashed size={28} aria-hidden="true" className="empty-icon" />
        <h2>No messages yet</h2>
        <p>Describe a change, ask about the code, or plan a task. The conversation will appear here.</p>
      </div>
    </div>
  );
}
