// The Routes extension: starts the language server (`routes lsp`, README.md) for `.routes`
// files and adds "Routes: Show Routing Tree" and "Routes: Preview a Path…", which ask the
// server for the custom request `routes/preview` and show what it returns in a read-only
// virtual document, and "Routes: Restart Language Server". The server's code lenses run
// "routes.showPreview" with the params of `routes/preview` as their argument.
import * as vscode from "vscode";
import {
  Executable,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";
import { parsePreviewArguments } from "./previewArguments";

/** Must match `contributes.commands` in package.json (checked by Tests/editors). */
const SHOW_PREVIEW_COMMAND = "routes.showPreview";
const PREVIEW_PATH_COMMAND = "routes.previewPath";
const RESTART_COMMAND = "routes.restartServer";
/** The server's custom request (README.md, `routes lsp`). */
const PREVIEW_REQUEST = "routes/preview";
/** Virtual documents holding previews: `routes-preview:/App.routes (routing tree)?<params>`. */
const PREVIEW_SCHEME = "routes-preview";
/** The client id: VS Code reads the `routes.trace.server` setting because of it. */
const CLIENT_ID = "routes";
const CLIENT_NAME = "Routes Language Server";

/** The params of `routes/preview`; flags and optionals left out take the CLI's defaults. */
interface PreviewParams {
  textDocument: { uri: string };
  path: string | null;
  flags?: Record<string, boolean>;
  optionals?: Record<string, boolean>;
}

/** The result of `routes/preview`: the text of `routes tree` and the same tree as JSON. */
interface PreviewResult {
  text: string;
  tree: unknown;
}

let client: LanguageClient | undefined;
let clientStarting: Promise<void> | undefined;

function serverPath(): string {
  const configured = vscode.workspace.getConfiguration("routes").get<string>("server.path");
  return configured && configured.trim() !== "" ? configured.trim() : "routes";
}

function createClient(watcher: vscode.FileSystemWatcher): LanguageClient {
  // `routes lsp` speaks LSP over stdin/stdout (the default transport of an Executable).
  const server: Executable = { command: serverPath(), args: ["lsp"] };
  const serverOptions: ServerOptions = { run: server, debug: server };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "routes" }],
    synchronize: {
      // Files that are not open: the server re-reads them on workspace/didChangeWatchedFiles.
      fileEvents: watcher,
    },
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}

/** Starts the client; false (after saying why) when the server could not be started. */
async function startClient(watcher: vscode.FileSystemWatcher): Promise<boolean> {
  client = createClient(watcher);
  clientStarting = client.start();
  try {
    await clientStarting;
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Routes: could not start the language server \`${serverPath()} lsp\`: ${describe(error)}. ` +
        "Set `routes.server.path` to the routes executable.",
    );
    return false;
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  clientStarting = undefined;
  if (running) {
    try {
      await running.stop();
    } catch {
      // A server that never started cannot be stopped; there is nothing left to do.
    }
  }
}

/** Holds the text of each open preview and the params it was made with, keyed by its virtual URI. */
class PreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly params = new Map<string, PreviewParams>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  set(uri: vscode.Uri, text: string, params: PreviewParams): void {
    this.texts.set(uri.toString(), text);
    this.params.set(uri.toString(), params);
    this.changed.fire(uri);
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
    this.params.delete(uri.toString());
  }

  /** The previews still shown, as (virtual URI, params) pairs. */
  open(): Array<[vscode.Uri, PreviewParams]> {
    return [...this.params.entries()].map(([key, params]): [vscode.Uri, PreviewParams] => [vscode.Uri.parse(key), params]);
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
    this.params.clear();
  }
}

/** The last path segment of a URI's path. */
function baseName(uriPath: string): string {
  return uriPath.slice(uriPath.lastIndexOf("/") + 1);
}

/** `routes-preview:/App.routes (routing tree)` or `routes-preview:/App.routes (Home/Detail)`. */
function previewUri(params: PreviewParams): vscode.Uri {
  const source = vscode.Uri.parse(params.textDocument.uri);
  const what = params.path === null ? "routing tree" : params.path;
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: "/" + baseName(source.path) + " (" + what + ")",
    query: JSON.stringify(params),
  });
}

/** The params asking for a source file's whole routing tree. */
function treeParams(source: vscode.Uri): PreviewParams {
  return { textDocument: { uri: source.toString() }, path: null };
}

function isPreviewParams(value: unknown): value is PreviewParams {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const document = (value as { textDocument?: { uri?: unknown } }).textDocument;
  return typeof document?.uri === "string";
}

/** Sends `routes/preview`; returns the text of the tree or of the resolution. */
async function requestPreview(params: PreviewParams): Promise<string> {
  if (!client || !clientStarting) {
    throw new Error("the language server is not running");
  }
  await clientStarting;
  const result = await client.sendRequest<PreviewResult>(PREVIEW_REQUEST, params);
  return result.text;
}

/**
 * Shows a preview: of the given params (a code lens's argument), of the file given (the
 * editor title's button passes its URI), or of the active editor's routing tree.
 */
async function showPreview(provider: PreviewProvider, argument?: unknown): Promise<void> {
  let params: PreviewParams;
  if (isPreviewParams(argument)) {
    params = argument;
  } else if (argument instanceof vscode.Uri) {
    params = treeParams(argument);
  } else {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== "routes") {
      void vscode.window.showInformationMessage("Routes: open a .routes file to show its routing tree.");
      return;
    }
    params = treeParams(editor.document.uri);
  }
  let text: string;
  try {
    text = await requestPreview(params);
  } catch (error) {
    const name = baseName(vscode.Uri.parse(params.textDocument.uri).path);
    void vscode.window.showErrorMessage(`Routes: no preview for ${name}: ${describe(error)}`);
    return;
  }
  const uri = previewUri(params);
  provider.set(uri, text, params);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: false,
  });
}

/** Asks for a path and flags or optionals, as `routes tree` takes them, and shows how it resolves. */
async function previewPath(provider: PreviewProvider, lastInput: { value: string }): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "routes") {
    void vscode.window.showInformationMessage("Routes: open a .routes file to preview a path in it.");
    return;
  }
  const input = await vscode.window.showInputBox({
    title: "Routes: Preview a Path",
    prompt: "A path literal, then NAME=true|false for flags and NAME=present|absent for optionals",
    placeHolder: 'Home/Detail(id: "42") isLoggedIn=true detailStore=absent',
    value: lastInput.value,
  });
  if (input === undefined) {
    return;
  }
  lastInput.value = input;
  const parsed = parsePreviewArguments(input);
  if ("error" in parsed) {
    void vscode.window.showErrorMessage(`Routes: ${parsed.error}`);
    return;
  }
  await showPreview(provider, {
    textDocument: { uri: editor.document.uri.toString() },
    path: parsed.path,
    flags: parsed.flags,
    optionals: parsed.optionals,
  });
}

/** After a save (of this file or of one it imports), the open previews are asked for again. */
async function refreshPreviews(provider: PreviewProvider): Promise<void> {
  for (const [uri, params] of provider.open()) {
    try {
      provider.set(uri, await requestPreview(params), params);
    } catch {
      // Keep showing the last text; the problems are in the Problems panel.
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const watcher = vscode.workspace.createFileSystemWatcher("**/*.routes");
  const provider = new PreviewProvider();
  const lastInput = { value: "" };
  context.subscriptions.push(
    watcher,
    provider,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand(SHOW_PREVIEW_COMMAND, (argument?: unknown) => showPreview(provider, argument)),
    vscode.commands.registerCommand(PREVIEW_PATH_COMMAND, () => previewPath(provider, lastInput)),
    vscode.commands.registerCommand(RESTART_COMMAND, async () => {
      await stopClient();
      if (await startClient(watcher)) {
        void vscode.window.showInformationMessage("Routes: the language server was restarted.");
      }
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (document.languageId === "routes") {
        void refreshPreviews(provider);
      }
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === PREVIEW_SCHEME) {
        provider.forget(document.uri);
      }
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("routes.server.path")) {
        await stopClient();
        await startClient(watcher);
      }
    }),
  );
  await startClient(watcher);
}

export function deactivate(): Promise<void> {
  return stopClient();
}
