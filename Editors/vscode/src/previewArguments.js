// The arguments of "Routes: Preview a Path…", as typed: `NAME=true|false` sets a flag,
// `NAME=present|absent` an optional, and the rest is the path literal, kept as written (it
// may hold spaces and quoted strings: `Home/Detail(id: "42")`). The same rules as Neovim's
// `:RoutesPreview`. Plain JavaScript (compiled along with the TypeScript, `allowJs`), so that
// Tests/editors can run it with node.
"use strict";

/**
 * @typedef {{ path: string | null, flags: Record<string, boolean>, optionals: Record<string, boolean> }} PreviewArguments
 */

/**
 * Words are separated by whitespace outside double quotes (a backslash escapes the next
 * character inside them). The assignments may come before or after the path, not inside it.
 * @param {string} text
 * @returns {PreviewArguments | { error: string }}
 */
function parsePreviewArguments(text) {
  /** @type {PreviewArguments} */
  const result = { path: null, flags: {}, optionals: {} };
  /** @type {Array<{ text: string, first: number, last: number }>} */
  const words = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i += 1;
      continue;
    }
    const first = i;
    let quoted = false;
    while (i < text.length) {
      const c = text[i];
      if (quoted) {
        if (c === "\\") {
          i += 1;
        } else if (c === '"') {
          quoted = false;
        }
      } else if (c === '"') {
        quoted = true;
      } else if (/\s/.test(c)) {
        break;
      }
      i += 1;
    }
    words.push({ text: text.slice(first, i), first, last: i });
  }
  /** @type {number | null} */
  let pathFirst = null;
  let pathLast = 0;
  let afterPath = false;
  for (const word of words) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z]+)$/.exec(word.text);
    if (assignment) {
      const [, name, value] = assignment;
      if (value === "true" || value === "false") {
        result.flags[name] = value === "true";
      } else if (value === "present" || value === "absent") {
        result.optionals[name] = value === "present";
      } else {
        return { error: `${word.text}: expected NAME=true|false (a flag) or NAME=present|absent (an optional)` };
      }
      afterPath = pathFirst !== null;
    } else if (afterPath) {
      return { error: `only one path may be given (flags and optionals go before or after it): ${text}` };
    } else {
      if (pathFirst === null) {
        pathFirst = word.first;
      }
      pathLast = word.last;
    }
  }
  if (pathFirst !== null) {
    result.path = text.slice(pathFirst, pathLast);
  }
  return result;
}

module.exports = { parsePreviewArguments };
