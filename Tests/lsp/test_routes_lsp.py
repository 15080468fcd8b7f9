"""`routes lsp` driven by pytest-lsp: a second, independent client (pygls + lsprotocol).

Run from the repository root, after `swift build`:

    python3 -m pip install -r Tests/lsp/requirements.txt
    ROUTES_BIN=.build/debug/routes python3 -m pytest -q Tests/lsp

pytest-lsp checks every result against the capabilities the client declared
(LspSpecificationWarning); those warnings are errors here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

REPO = Path(__file__).resolve().parents[2]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def server_command() -> list[str]:
    """`$ROUTES_BIN lsp`; ROUTES_BIN defaults to .build/debug/routes in the repository."""
    binary = Path(os.environ.get("ROUTES_BIN", ".build/debug/routes"))
    return [str(binary if binary.is_absolute() else REPO / binary), "lsp"]


try:
    import pytest_lsp
    from lsprotocol import types
    from pygls.exceptions import JsonRpcInvalidParams
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities, make_test_lsp_client
except ImportError as error:  # pragma: no cover - depends on the machine
    if in_ci():
        raise
    pytest.skip(f"pytest-lsp is not installed ({error}): pip install -r Tests/lsp/requirements.txt",
                allow_module_level=True)

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning"),
]

# The routing tree of the seed app, verbatim.
SEED_TREE = (REPO / "Examples" / "Seed" / "App.tree").read_text(encoding="utf-8")


def make_client() -> LanguageClient:
    """pytest-lsp's test client, also answering the server's `client/registerCapability` (it
    registers a watcher for `**/*.routes` after `initialized`) and keeping what was registered,
    and answering the refresh requests of inlay hints and code lenses the server sends a client
    that supports them (after a change another document or the disk made), keeping their
    methods (pytest-lsp answers and counts `workspace/diagnostic/refresh` itself)."""
    client = make_test_lsp_client()
    client.registrations = []
    client.refreshes = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(ls: LanguageClient, params: types.RegistrationParams):
        ls.registrations.extend(params.registrations)
        return None

    for method in (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH):
        def refresh(ls: LanguageClient, params, method=method):
            ls.refreshes.append(method)
            return None
        client.feature(method)(refresh)

    return client


CONFIG = ClientServerConfig(server_command=server_command(), client_factory=make_client)


def file_name(uri: str) -> str:
    return Path(unquote(urlparse(uri).path)).name


def position(text: str, needle: str, delta: int = 0, occurrence: int = 0) -> types.Position:
    """The position of `needle` (its `occurrence`-th appearance) in `text`, `delta` further
    right (UTF-16 units; the examples' code is ASCII)."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    before = text[:index]
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return types.Position(line=line, character=column + delta)


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="routes", version=version,
                                             text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


async def initialize(client: LanguageClient, workspace: Path, capabilities: types.ClientCapabilities,
                     options: dict | None = None):
    return await client.initialize_session(types.InitializeParams(
        capabilities=capabilities,
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="workspace")],
        client_info=types.ClientInfo(name="pytest-lsp"),
        initialization_options=options,
    ))


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, workspace: Path):
    """A session as VS Code 1.65 would start it (UTF-16, snippets, markdown)."""
    lsp_client.initialize_result = await initialize(lsp_client, workspace, client_capabilities("visual-studio-code"))
    lsp_client.workspace = workspace
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def neovim(lsp_client: LanguageClient, workspace: Path):
    """A session as Neovim 0.11 would start it (it offers UTF-8 positions)."""
    lsp_client.initialize_result = await initialize(lsp_client, workspace, client_capabilities("neovim@v0.11.0"))
    lsp_client.workspace = workspace
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def neovim_pulling(lsp_client: LanguageClient, workspace: Path):
    """Neovim 0.11, asking to pull diagnostics (it can)."""
    lsp_client.initialize_result = await initialize(lsp_client, workspace, client_capabilities("neovim@v0.11.0"),
                                                    {"pullDiagnostics": True})
    lsp_client.workspace = workspace
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def bare(lsp_client: LanguageClient):
    """A started server, nothing sent yet: the test does the lifecycle itself."""
    yield


async def test_initialize_announces_the_capabilities(client: LanguageClient):
    result: types.InitializeResult = client.initialize_result
    assert result.server_info is not None and result.server_info.name == "routes"
    capabilities = result.capabilities
    assert capabilities.position_encoding == types.PositionEncodingKind.Utf16
    sync = capabilities.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.open_close is True
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert capabilities.completion_provider is not None
    assert " " in (capabilities.completion_provider.trigger_characters or [])
    assert capabilities.hover_provider
    assert capabilities.definition_provider
    assert capabilities.references_provider
    assert capabilities.document_symbol_provider
    rename = capabilities.rename_provider
    assert isinstance(rename, types.RenameOptions) and rename.prepare_provider is True


async def test_a_client_offering_utf8_gets_utf8(neovim: LanguageClient):
    assert neovim.initialize_result.capabilities.position_encoding == types.PositionEncodingKind.Utf8


async def test_diagnostics_on_open(client: LanguageClient):
    seed = (client.workspace / "Seed.routes").read_text(encoding="utf-8")
    broken = seed.replace("uses loginStore", "uses nobody")
    path = client.workspace / "Broken.routes"
    path.write_text(broken, encoding="utf-8")
    uri = open_document(client, path, version=4)
    published = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert published.uri == uri
    assert published.version == 4
    diagnostics = {d.code: d for d in client.diagnostics[uri]}
    assert set(diagnostics) == {"undefined-name", "unused-declaration"}
    assert all(d.source == "routes" for d in diagnostics.values())

    undefined = diagnostics["undefined-name"]
    assert undefined.severity == types.DiagnosticSeverity.Error
    start = position(broken, "uses nobody", delta=5)
    assert undefined.range == types.Range(start=start, end=types.Position(line=start.line, character=start.character + 6))
    assert "nobody" in undefined.message

    unused = diagnostics["unused-declaration"]
    assert unused.severity == types.DiagnosticSeverity.Warning
    assert list(unused.tags or []) == [types.DiagnosticTag.Unnecessary]
    assert "loginStore" in unused.message

    # A change is republished with its version; fixing it clears the list.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=5),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=start, end=types.Position(line=start.line, character=start.character + 6)),
            text="loginStore")],
    ))
    republished = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert republished.version == 5
    assert list(client.diagnostics[uri]) == []


async def test_completion_after_screen_lists_the_screens(client: LanguageClient):
    seed = (client.workspace / "Seed.routes").read_text(encoding="utf-8")
    anchor = "screen Settings uses settingsStore\n"
    text = seed.replace(anchor, anchor + "          screen \n")
    path = client.workspace / "Edit.routes"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    at = position(text, "          screen \n", delta=17)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    items = result.items if isinstance(result, types.CompletionList) else result
    assert {item.label for item in items} == {"Home", "Settings", "Detail", "Login"}
    assert all(item.kind == types.CompletionItemKind.Struct for item in items)


async def test_completion_after_uses_puts_what_is_in_scope_first(client: LanguageClient):
    seed = (client.workspace / "Seed.routes").read_text(encoding="utf-8")
    text = seed.replace("screen Home uses appStore {", "screen Home uses  {")
    path = client.workspace / "Edit.routes"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    at = position(text, "screen Home uses  {", delta=17)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    items = sorted(result.items, key=lambda item: item.sort_text or item.label)
    assert [item.label for item in items][:2] == ["appStore", "loginStore"]
    later = {item.label: item for item in items[2:]}
    assert set(later) == {"settingsStore", "detailStore"}
    assert all("not in scope" in (item.detail or "") for item in later.values())


async def test_hover_shows_the_declaration_and_its_doc(client: LanguageClient):
    path = client.workspace / "Seed.routes"
    seed = path.read_text(encoding="utf-8")
    uri = open_document(client, path)
    at = position(seed, "screen Home uses", delta=8)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "screen Home" in hover.contents.value
    assert "The landing screen of a signed-in user." in hover.contents.value
    assert "Home" in hover.contents.value and "Example" in hover.contents.value
    assert hover.range == types.Range(start=types.Position(line=at.line, character=at.character - 1),
                                      end=types.Position(line=at.line, character=at.character + 3))


async def test_definition_goes_to_another_file(client: LanguageClient):
    path = client.workspace / "App.routes"
    app = path.read_text(encoding="utf-8")
    uri = open_document(client, path)
    at = position(app, "      signIn\n", delta=8)
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    locations = result if isinstance(result, list) else [result]
    assert len(locations) == 1
    location = locations[0]
    assert file_name(location.uri) == "Account.routes"
    account = (client.workspace / "Account.routes").read_text(encoding="utf-8")
    declared = position(account, "builder signIn", delta=8)
    assert location.range.start == declared
    assert location.range.end == types.Position(line=declared.line, character=declared.character + 6)


async def test_rename_edits_every_file(client: LanguageClient):
    path = client.workspace / "App.routes"
    app = path.read_text(encoding="utf-8")
    uri = open_document(client, path)
    at = position(app, "      webPage\n", delta=9)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "webPage"

    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at, new_name="helpPage"))
    assert edit is not None and edit.changes is not None
    files = {file_name(u): edits for u, edits in edit.changes.items()}
    assert set(files) == {"Shared.routes", "App.routes", "Account.routes", "Catalog.routes", "Checkout.routes"}
    for name, edits in files.items():
        lines = (client.workspace / name).read_text(encoding="utf-8").split("\n")
        for e in edits:
            assert e.new_text == "helpPage"
            assert e.range.start.line == e.range.end.line
            assert lines[e.range.start.line][e.range.start.character:e.range.end.character] == "webPage"


async def test_code_action_uses_the_suggested_name(client: LanguageClient):
    seed = (client.workspace / "Seed.routes").read_text(encoding="utf-8")
    broken = seed.replace("uses loginStore", "uses loginStor")
    path = client.workspace / "Broken.routes"
    path.write_text(broken, encoding="utf-8")
    uri = open_document(client, path, version=3)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    undefined = next(d for d in client.diagnostics[uri] if d.code == "undefined-name")

    options = client.initialize_result.capabilities.code_action_provider
    assert isinstance(options, types.CodeActionOptions)
    assert set(options.code_action_kinds or []) == {"quickfix", "source.organizeImports", "source.fixAll"}

    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=undefined.range,
        context=types.CodeActionContext(diagnostics=[undefined], only=[types.CodeActionKind.QuickFix])))
    assert actions
    use = next(a for a in actions if isinstance(a, types.CodeAction) and a.title == "Use `loginStore`")
    assert use.kind == types.CodeActionKind.QuickFix
    assert use.is_preferred is True
    assert list(use.diagnostics or []) == [undefined]
    # VS Code takes versioned document changes: one edit of the open document, at its version.
    assert use.edit is not None and use.edit.document_changes is not None
    [change] = use.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == uri and change.text_document.version == 3
    [edit] = change.edits
    assert edit.range == undefined.range and edit.new_text == "loginStore"


async def test_document_symbols_and_the_file_watcher_registration(client: LanguageClient):
    uri = open_document(client, client.workspace / "Seed.routes")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    kinds = {s.name: s.kind for s in symbols}
    assert kinds["Home"] == types.SymbolKind.Struct
    assert kinds["detail"] == types.SymbolKind.Function
    assert kinds["root"] == types.SymbolKind.Function
    assert kinds["appStore"] == types.SymbolKind.Variable
    assert kinds["detailStore"] == types.SymbolKind.Variable
    assert kinds["isLoggedIn"] == types.SymbolKind.Boolean
    # VS Code allows dynamic registration of file watchers; the server asked for `*.routes` and
    # the projects' routes.json after `initialized` (long before this answer).
    watchers = [r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert len(watchers) == 1
    # registerOptions is `LSPAny` in lsprotocol: it stays a plain dict.
    assert watchers[0].register_options == {"watchers": [{"globPattern": "**/*.routes"}, {"globPattern": "**/routes.json"}]}


async def test_routes_preview_of_the_seed_app_is_spec_section_6s_tree(client: LanguageClient):
    uri = open_document(client, client.workspace / "Seed.routes")
    # pygls gives the untyped result of a custom request as nested named tuples.
    result = await client.protocol.send_request_async("routes/preview", {"textDocument": {"uri": uri}, "path": None})
    assert result.text == SEED_TREE
    assert result.tree.kind == "root"

    resolved = await client.protocol.send_request_async(
        "routes/preview", {"textDocument": {"uri": uri}, "path": "Home/Settings", "flags": {"isLoggedIn": True}})
    elements = resolved.tree.elements
    assert [e.screen for e in elements] == ["Home", "Settings"]
    assert all(e.built for e in elements)

    with pytest.raises(JsonRpcInvalidParams):
        await client.protocol.send_request_async("routes/preview", {"textDocument": {"uri": uri}, "flags": {"nope": True}})
    with pytest.raises(JsonRpcInvalidParams):
        await client.protocol.send_request_async("routes/preview", {"textDocument": {"uri": uri}, "path": "Home/Nowhere"})


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """`text` with LSP text edits applied (UTF-16 positions; the text is ASCII)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character
    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for (start, end, _), (next_start, _, _) in zip(spans[1:], spans):
        assert end <= next_start, "edits overlap"
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


async def test_formatting_gives_what_routes_fmt_gives(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert capabilities.document_formatting_provider
    assert capabilities.document_range_formatting_provider
    on_type = capabilities.document_on_type_formatting_provider
    assert on_type is not None and on_type.first_trigger_character == "}"

    text = "screen   Home\nscreen Detail( id:String )\nroot {\nscreen Home {\n anyOf { screen Detail\n screen Home }\n}\n}\n"
    path = client.workspace / "Messy.routes"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits
    expected = subprocess.run(server_command()[:1] + ["fmt", "-"], input=text, capture_output=True,
                              text=True, check=True).stdout
    assert apply_edits(text, edits) == expected
    assert expected.startswith("screen Home\nscreen Detail(id: String)\nroot {\n  screen Home {\n    anyOf {\n")

    # A range: the second declaration only.
    ranged = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=6)),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert apply_edits(text, ranged or []) == text.replace("screen Detail( id:String )", "screen Detail(id: String)")

    # A document the server does not know: invalid params.
    with pytest.raises(JsonRpcInvalidParams):
        await client.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=(client.workspace / "nowhere" / "No.routes").as_uri()),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True)))


async def test_shutdown_then_exit_ends_the_server_with_status_zero(bare: LanguageClient, workspace: Path):
    await initialize(bare, workspace, types.ClientCapabilities())
    assert await bare.shutdown_async(None) is None
    bare.exit(None)
    server = bare._server  # the server's asyncio subprocess (pygls keeps it here)
    assert server is not None
    assert await server.wait() == 0


# --- Workspace symbols, highlights, selection ranges, inlay hints, code lenses, pull diagnostics


async def test_initialize_announces_the_lsp_3_17_requests(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert capabilities.workspace_symbol_provider is True
    assert capabilities.document_highlight_provider is True
    assert capabilities.selection_range_provider is True
    assert isinstance(capabilities.inlay_hint_provider, types.InlayHintOptions)
    assert isinstance(capabilities.code_lens_provider, types.CodeLensOptions)
    assert capabilities.code_lens_provider.resolve_provider is True
    # Pulls are offered only to a client that asks for them (below).
    assert capabilities.diagnostic_provider is None
    assert {'"', "/"} <= set(capabilities.completion_provider.trigger_characters or [])


async def test_workspace_symbols_rank_fuzzy_matches_across_files(client: LanguageClient):
    open_document(client, client.workspace / "Seed.routes")
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="setSt"))
    assert symbols and symbols[0].name == "settingsStore"
    assert symbols[0].kind == types.SymbolKind.Variable
    assert symbols[0].container_name == "Seed.routes"
    # A file that is not open: the shop's catalog.
    found = {s.name: s for s in await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="catalogStore"))}
    assert file_name(found["catalogStore"].location.uri) == "Catalog.routes"
    assert found["catalogStore"].container_name == "Catalog.routes"


async def test_document_highlight_reads_and_writes(client: LanguageClient):
    path = client.workspace / "Seed.routes"
    seed = path.read_text(encoding="utf-8")
    uri = open_document(client, path)
    at = position(seed, "uses settingsStore", delta=7)
    highlights = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    assert [h.kind for h in highlights] == [types.DocumentHighlightKind.Write, types.DocumentHighlightKind.Read]
    declared = position(seed, "dependency settingsStore", delta=11)
    assert highlights[0].range.start == declared
    assert highlights[1].range.start == types.Position(line=at.line, character=at.character - 2)


async def test_selection_ranges_grow_to_the_whole_file(client: LanguageClient):
    path = client.workspace / "Seed.routes"
    seed = path.read_text(encoding="utf-8")
    uri = open_document(client, path)
    at = position(seed, "uses settingsStore", delta=7)
    [selection] = await client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=types.TextDocumentIdentifier(uri=uri), positions=[at]))
    ranges = []
    while selection is not None:
        ranges.append(selection.range)
        selection = selection.parent
    assert ranges[0] == types.Range(start=types.Position(line=at.line, character=at.character - 2),
                                    end=types.Position(line=at.line, character=at.character + 11))
    assert ranges[1].start.character == at.character - 7  # `uses settingsStore`
    lines = seed.split("\n")
    assert ranges[-1] == types.Range(start=types.Position(line=0, character=0),
                                     end=types.Position(line=len(lines) - 1, character=len(lines[-1])))
    assert len(ranges) >= 8


async def test_inlay_hints_show_presentations_and_what_a_screen_provides(neovim: LanguageClient):
    path = neovim.workspace / "Seed.routes"
    seed = path.read_text(encoding="utf-8")
    uri = open_document(neovim, path)
    hints = await neovim.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=len(seed.split("\n")), character=0))))
    assert [h.label for h in hints] == ["sheet", "provides settingsStore"]
    assert hints[0].kind == types.InlayHintKind.Type
    # Neovim offers UTF-8: the column is in bytes (the seed is ASCII, so the same).
    assert hints[1].position == position(seed, "screen Home uses appStore", delta=25)


async def test_code_lenses_resolve_to_a_preview_the_server_runs(client: LanguageClient):
    uri = open_document(client, client.workspace / "Seed.routes")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    # Each screen, `root`, and each of the three links.
    assert len(lenses) == 8 and all(lens.command is None for lens in lenses)
    resolved = [await client.code_lens_resolve_async(lens) for lens in lenses]
    titles = [lens.command.title for lens in resolved]
    assert titles[4] == "preview routing tree"
    assert all(title.startswith("opens ") for title in titles[5:]), titles
    assert "preview Home/Detail" in titles
    detail = next(lens for lens in resolved if lens.command.title == "preview Home/Detail")
    assert detail.command.command == "routes.showPreview"
    [argument] = detail.command.arguments
    result = await client.protocol.send_request_async("routes/preview", argument)
    assert [e.screen for e in result.tree.elements] == ["Home", "Detail"]
    assert all(e.built for e in result.tree.elements)


async def test_a_client_that_can_pull_but_does_not_ask_to_gets_pushes(neovim: LanguageClient):
    assert neovim.initialize_result.capabilities.diagnostic_provider is None
    seed = (neovim.workspace / "Seed.routes").read_text(encoding="utf-8")
    path = neovim.workspace / "Broken.routes"
    path.write_text(seed.replace("uses loginStore", "uses nobody"), encoding="utf-8")
    uri = open_document(neovim, path)
    await neovim.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert {d.code for d in neovim.diagnostics[uri]} == {"undefined-name", "unused-declaration"}


async def test_a_client_that_pulls_diagnostics_gets_reports_not_pushes(neovim_pulling: LanguageClient):
    neovim = neovim_pulling
    diagnostics = neovim.initialize_result.capabilities.diagnostic_provider
    assert isinstance(diagnostics, types.DiagnosticOptions)
    assert diagnostics.inter_file_dependencies is True and diagnostics.workspace_diagnostics is True
    seed = (neovim.workspace / "Seed.routes").read_text(encoding="utf-8")
    path = neovim.workspace / "Broken.routes"
    path.write_text(seed.replace("uses loginStore", "uses nobody"), encoding="utf-8")
    uri = open_document(neovim, path)
    report = await neovim.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert {d.code for d in report.items} == {"undefined-name", "unused-declaration"}
    again = await neovim.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id))
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == report.result_id
    workspace = await neovim.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_file = {file_name(item.uri): item for item in workspace.items}
    assert set(by_file) == {"Broken.routes", "Seed.routes", "App.routes", "Shared.routes", "Catalog.routes",
                            "Account.routes", "Checkout.routes"}
    assert by_file["Broken.routes"].version == 1 and by_file["Seed.routes"].version is None
    # Nothing was pushed for the document (pushes would show each diagnostic twice).
    assert uri not in neovim.diagnostics


async def test_import_paths_complete_from_the_folder(client: LanguageClient):
    (client.workspace / "Lib").mkdir()
    (client.workspace / "Lib" / "Extra.routes").write_text("screen Extra\n", encoding="utf-8")
    path = client.workspace / "Imports.routes"
    path.write_text('import "Lib/"\n', encoding="utf-8")
    uri = open_document(client, path)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=12)))
    items = result.items if isinstance(result, types.CompletionList) else result
    assert [item.label for item in items] == ["Extra.routes", "../"]
    assert [item.kind for item in items] == [types.CompletionItemKind.File, types.CompletionItemKind.Folder]


async def test_an_edit_in_one_of_two_documents_asks_to_refresh_the_hints(neovim: LanguageClient):
    open_document(neovim, neovim.workspace / "Shared.routes")
    app = neovim.workspace / "App.routes"
    uri = open_document(neovim, app)
    neovim.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            text="// a note\n")]))
    # A request after the change: its answer comes after the refresh the change caused.
    await neovim.workspace_symbol_async(types.WorkspaceSymbolParams(query="Shop"))
    assert types.WORKSPACE_INLAY_HINT_REFRESH in neovim.refreshes
