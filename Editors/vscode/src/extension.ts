// The Routes extension: starts the language server (`routes lsp`, README.md) for `.routes`
// files and adds "Routes: Show Routing Tree", which asks the server for the custom request
// `routes/preview` and shows the tree it returns in a read-only virtual document.
import * as path from "path";
import * as vscode from "vscode";
import {
  Executable,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

/** Must match `contributes.commands` in package.json (checked by Tests/editors). */
const SHOW_PREVIEW_COMMAND = "routes.showPreview";
/** The server's custom request (README.md, `routes lsp`). */
const PREVIEW_REQUEST = "routes/preview";
/** Virtual documents holding previews: `routes-preview:/App.routes?<source URI>`. */
const PREVIEW_SCHEME = "routes-preview";
/** The client id: VS Code reads the `routes.trace.server` setting because of it. */
const CLIENT_ID = "routes";
const CLIENT_NAME = "Routes Language Server";

/** The params of `routes/preview`; flags and optionals left out take the CLI's defaults. */
interface PreviewParams {
  textDocument: { uri: string };
  path: string | null;
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

async function startClient(watcher: vscode.FileSystemWatcher): Promise<void> {
  client = createClient(watcher);
  clientStarting = client.start();
  try {
    await clientStarting;
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Routes: could not start the language server \`${serverPath()} lsp\`: ${describe(error)}. ` +
        "Set `routes.server.path` to the routes executable.",
    );
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

/** Holds the text of each open preview, keyed by its virtual URI. */
class PreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  /** The previews still shown, as (virtual URI, source URI) pairs. */
  open(): Array<[vscode.Uri, vscode.Uri]> {
    return [...this.texts.keys()].map((key) => {
      const uri = vscode.Uri.parse(key);
      return [uri, sourceOf(uri)];
    });
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

function previewUri(source: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: "/" + path.posix.basename(source.path) + " (routing tree)",
    query: source.toString(),
  });
}

function sourceOf(preview: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(preview.query);
}

/** Sends `routes/preview` for a source file: the whole routing tree (`path: null`). */
async function requestPreview(source: vscode.Uri): Promise<string> {
  if (!client || !clientStarting) {
    throw new Error("the language server is not running");
  }
  await clientStarting;
  const params: PreviewParams = { textDocument: { uri: source.toString() }, path: null };
  const result = await client.sendRequest<PreviewResult>(PREVIEW_REQUEST, params);
  return result.text;
}

async function showPreview(provider: PreviewProvider): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "routes") {
    void vscode.window.showInformationMessage("Routes: open a .routes file to show its routing tree.");
    return;
  }
  const source = editor.document.uri;
  let text: string;
  try {
    text = await requestPreview(source);
  } catch (error) {
    void vscode.window.showErrorMessage(`Routes: no routing tree for ${path.posix.basename(source.path)}: ${describe(error)}`);
    return;
  }
  const uri = previewUri(source);
  provider.set(uri, text);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: false,
  });
}

/** After a save (of this file or of one it imports), the open previews are asked for again. */
async function refreshPreviews(provider: PreviewProvider): Promise<void> {
  for (const [uri, source] of provider.open()) {
    try {
      provider.set(uri, await requestPreview(source));
    } catch {
      // Keep showing the last tree; the problems are in the Problems panel.
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const watcher = vscode.workspace.createFileSystemWatcher("**/*.routes");
  const provider = new PreviewProvider();
  context.subscriptions.push(
    watcher,
    provider,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand(SHOW_PREVIEW_COMMAND, () => showPreview(provider)),
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
