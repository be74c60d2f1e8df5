import { describe, expect, it } from 'vitest';
import { fragmentFile, parseDirective, splitVisualizations, validFileName, vizRoute } from './directive';

const SID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const DIR = `/home/ada/.local/share/pi-desktop/visualizations/${SID}`;
const line = (path: string, title = 'Sales') => `::visualize${JSON.stringify({ path, title })}`;

describe('splitVisualizations', () => {
  it('turns a standalone line into a card between Markdown runs', () => {
    const text = `Here is the chart:\n\n${line(`${DIR}/sales.html`)}\n\nIt shows **growth**.`;
    expect(splitVisualizations(text, SID)).toEqual([
      { kind: 'markdown', text: 'Here is the chart:\n' },
      { kind: 'viz', viz: { file: 'sales.html', title: 'Sales' } },
      { kind: 'markdown', text: '\nIt shows **growth**.' },
    ]);
  });

  it('accepts up to three spaces of indent, trailing blanks and CRLF', () => {
    const text = `a\r\n   ${line(`${DIR}/a.html`)}  \r\nb`;
    expect(splitVisualizations(text, SID).map((s) => s.kind)).toEqual(['markdown', 'viz', 'markdown']);
  });

  it('ignores lines inside fenced code, of either fence, until the fence really closes', () => {
    const inside = line(`${DIR}/x.html`);
    for (const text of [
      `\`\`\`md\n${inside}\n\`\`\``,
      `~~~\n${inside}\n~~~`,
      `\`\`\`\`\n\`\`\`\n${inside}\n\`\`\`\``,
      `~~~\n\`\`\`\n~~~~x\n${inside}\n`, // an unclosed fence runs to the end
      `  \`\`\`\n${inside}\n  \`\`\``,
    ]) {
      const segs = splitVisualizations(text, SID);
      expect(segs.every((s) => s.kind === 'markdown'), text).toBe(true);
      expect(segs.map((s) => (s.kind === 'markdown' ? s.text : '')).join('\n')).toBe(text);
    }
    // After the fence closes, lines count again.
    expect(splitVisualizations(`\`\`\`\ncode\n\`\`\`\n${inside}`, SID).map((s) => s.kind)).toEqual(['markdown', 'viz']);
  });

  it('ignores indented code, quoted, inline and malformed lines, keeping them as text', () => {
    for (const text of [
      `    ${line(`${DIR}/x.html`)}`,
      `\t${line(`${DIR}/x.html`)}`,
      `> ${line(`${DIR}/x.html`)}`,
      `See ${line(`${DIR}/x.html`)}`,
      `${line(`${DIR}/x.html`)} and more`,
      `::visualize{"path": "${DIR}/x.html", "title": "unterminated}`,
      `::visualize{path: '${DIR}/x.html'}`,
      `::visualize["${DIR}/x.html"]`,
      `::visualize{"title":"no path"}`,
      `::visualize{"path":42}`,
      `::visualize{"path":"${DIR}/x.html","title":7}`,
      `::visualize {"path":"${DIR}/x.html"}`,
      `::Visualize{"path":"${DIR}/x.html"}`,
    ]) {
      expect(splitVisualizations(text, SID), text).toEqual([{ kind: 'markdown', text }]);
    }
  });

  it("keeps references to other sessions' or non-visualization files as text", () => {
    for (const path of [
      `/home/ada/.local/share/pi-desktop/visualizations/other-session/x.html`,
      `/home/ada/.local/share/pi-desktop/scratch/${SID}/x.html`,
      `${DIR}/sub/x.html`,
      `${DIR}/x.txt`,
      `${DIR}/../${SID}/x.html`,
      `visualizations/${SID}/x.html`,
      `${DIR}/.html`,
    ]) {
      expect(parseDirective(line(path), SID), path).toBeNull();
    }
  });

  it('takes an optional title, trimmed and bounded', () => {
    expect(parseDirective(`::visualize{"path":"${DIR}/a.html"}`, SID)).toEqual({ file: 'a.html', title: '' });
    expect(parseDirective(line(`${DIR}/a.html`, `  ${'t'.repeat(300)}  `), SID)?.title).toHaveLength(200);
  });

  it('handles several cards and Windows paths', () => {
    const win = `C:\\Users\\Ada\\AppData\\Roaming\\pi-desktop\\visualizations\\${SID}\\b.html`;
    const segs = splitVisualizations(`${line(`${DIR}/a.html`, 'A')}\n${line(win, 'B')}`, SID);
    expect(segs).toEqual([
      { kind: 'viz', viz: { file: 'a.html', title: 'A' } },
      { kind: 'viz', viz: { file: 'b.html', title: 'B' } },
    ]);
  });
});

describe('fragment names and routes', () => {
  it('accepts the names the backend serves and nothing else', () => {
    expect(validFileName('chart.html')).toBe(true);
    expect(validFileName('Umsätze 2024.html')).toBe(true);
    for (const bad of ['.html', '.hidden.html', 'a.htm', 'a b .html', 'a..html', 'con.html', 'LPT1.x.html', 'a:b.html', 'a?.html', 'a\u0085.html', `${'a'.repeat(251)}.html`]) {
      expect(validFileName(bad), bad).toBe(false);
    }
  });

  it('derives the route from the file name only', () => {
    expect(vizRoute(SID, 'sales.html', 'dark')).toBe(`/_viz/${SID}/sales?theme=dark`);
    expect(vizRoute(SID, 'a b#%.html', 'light')).toBe(`/_viz/${SID}/a%20b%23%25?theme=light`);
    expect(fragmentFile(`${DIR}/sales.html`, SID)).toBe('sales.html');
  });
});
