/**
 * File names shown in the window, escaped the way the host escapes them for the model
 * (backend/names): a line break, terminal escape, bidi override or zero-width character
 * in a name would otherwise forge or disguise what is shown ("invoice\u202etxt.exe"
 * reading as "invoiceexe.txt"). A backslash is doubled so the escape is reversible;
 * every other character (accents, CJK, emoji, spaces) shows as it is.
 */
export function escapeName(name: string): string {
  if (!UNSAFE.test(name)) return name;
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${hex(c, 2)}`;
    else if (unsafe(c)) out += `\\u${hex(c, 4)}`;
    else out += ch;
  }
  return out;
}

// Lone surrogates (a name that was not valid UTF-16) are shown as \uXXXX too.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\u2066-\u2069\ufeff\ud800-\udfff]/;

function unsafe(c: number): boolean {
  return (
    (c >= 0x80 && c <= 0x9f) ||
    c === 0x061c ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x2060 ||
    c === 0xfeff ||
    (c >= 0xd800 && c <= 0xdfff)
  );
}

function hex(c: number, width: number): string {
  return c.toString(16).padStart(width, '0');
}
