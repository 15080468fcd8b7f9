// Copies the editor-neutral grammar files from Grammar/ into this extension before it is
// packaged (`vsce package` runs it through `vscode:prepublish`): an extension can only ship
// files inside its own folder. Grammar/ is the original; Tests/editors checks the copies.
const fs = require("fs");
const path = require("path");

const grammar = path.join(__dirname, "..", "..", "Grammar");
const copies = [
  ["routes.tmLanguage.json", path.join("syntaxes", "routes.tmLanguage.json")],
  ["language-configuration.json", "language-configuration.json"],
];
for (const [from, to] of copies) {
  const target = path.join(__dirname, to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(grammar, from), target);
  console.log(`sync-grammar: Grammar/${from} -> Editors/vscode/${to}`);
}
