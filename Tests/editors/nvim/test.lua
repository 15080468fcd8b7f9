-- End-to-end test of Editors/nvim in a real headless Neovim talking to a real
-- `routes lsp`. Run from the repository root:
--
--   ROUTES_BIN=.build/debug/routes timeout 60 nvim --headless -u NONE -i NONE -n \
--     --cmd "set rtp+=$PWD/Editors/nvim" -c "luafile Tests/editors/nvim/test.lua"
--
-- Prints one line per check and exits 0 when all pass, 1 otherwise (always:
-- nothing is left waiting for input). Every wait is bounded, all waits share
-- one time budget (ROUTES_EDITOR_TEST_BUDGET_MS, default 45000) and they stop
-- early when the server process has died, so a broken or silent server fails
-- well within the 60 s timeout.

local results = { passed = 0, failed = 0 }

local function out(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
  local log = os.getenv("ROUTES_EDITOR_TEST_LOG")
  if log and log ~= "" then
    local f = io.open(log, "a")
    if f then
      f:write(line .. "\n")
      f:close()
    end
  end
end

local function finish()
  out(("nvim: %d checks passed, %d failed"):format(results.passed, results.failed))
  if results.failed > 0 or results.passed == 0 then
    vim.cmd("cquit 1")
  else
    vim.cmd("qall!")
  end
end

local ok_all, err_all = xpcall(function()
  -- Paths -------------------------------------------------------------------
  local script = debug.getinfo(1, "S").source:gsub("^@", "")
  local repo = vim.fn.fnamemodify(script, ":p:h:h:h:h")
  local bin = os.getenv("ROUTES_BIN")
  if not bin or bin == "" then
    bin = repo .. "/.build/debug/routes"
  end
  if not bin:find("/") then
    bin = vim.fn.exepath(bin) ~= "" and vim.fn.exepath(bin) or bin
  else
    bin = vim.fn.fnamemodify(bin, ":p")
  end
  local v = vim.version()
  out(("nvim: NVIM v%d.%d.%d"):format(v.major, v.minor, v.patch))
  out("nvim: server " .. bin)

  vim.notify = function(msg, level)
    out("  notify[" .. tostring(level) .. "]: " .. tostring(msg))
  end

  local function check(name, fn)
    local t0 = vim.loop.hrtime()
    local ok, err = xpcall(fn, function(e)
      -- A failed expectation is reported as its message; anything else (a bug
      -- in this script or in the plugin) with its traceback.
      if type(e) == "table" and e.expectation then
        return e.expectation
      end
      return debug.traceback(tostring(e), 2)
    end)
    local ms = (vim.loop.hrtime() - t0) / 1e6
    if ok then
      results.passed = results.passed + 1
      out(("ok   - %s (%d ms)"):format(name, ms))
    else
      results.failed = results.failed + 1
      out(("FAIL - %s (%d ms)"):format(name, ms) .. "\n       " .. tostring(err):gsub("\n", "\n       "))
    end
    return ok
  end

  local function expect(cond, msg, ...)
    if not cond then
      local info = debug.getinfo(2, "l")
      local text = select("#", ...) > 0 and msg:format(...) or msg
      error({ expectation = ("line %d: %s"):format(info and info.currentline or 0, text) })
    end
  end

  vim.o.swapfile = false
  vim.o.shadafile = "NONE"

  -- Fixtures ------------------------------------------------------------------
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp .. "/.git", "p") -- the workspace root marker
  vim.fn.mkdir(tmp .. "/app", "p")
  local function write(path, text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
  end

  local broken_path = tmp .. "/app/Broken.routes"
  write(broken_path, table.concat({
    "/// Browse -> product.",
    "screen Browse",
    "screen ProductDetail(id: Product.ID)",
    "dependency catalogStore: CatalogStore",
    "",
    "root {",
    "  screen Browse uses catalogStore {",
    "    screen ProductDetail uses catalogStor",
    "  }",
    "}",
    "",
  }, "\n"))

  local seed_path = tmp .. "/app/App.routes"
  write(seed_path, table.concat({
    "/// The landing screen of a signed-in user.",
    "screen Home",
    "screen Settings",
    "screen Detail(id: String) sheet",
    "screen Login",
    "dependency appStore: AppStore",
    "dependency settingsStore: SettingsStore from Home",
    "dependency loginStore: LoginStore",
    "optional detailStore: DetailStore",
    "flag isLoggedIn",
    "",
    "builder detail {",
    "  screen Detail uses detailStore {",
    "    detail",
    "  }",
    "}",
    "",
    "root {",
    "  conditional isLoggedIn {",
    "    wildcard Home {",
    "      screen Home uses appStore {",
    "        anyOf {",
    "          screen Settings uses settingsStore",
    "          if let detailStore {",
    "            detail",
    "          } else {",
    "            empty",
    "          }",
    "        }",
    "      }",
    "    }",
    "  } else {",
    "    wildcard Login {",
    "      screen Login uses loginStore",
    "    }",
    "  }",
    "}",
    "",
  }, "\n"))

  -- Setup ---------------------------------------------------------------------
  vim.cmd("filetype plugin indent on")
  vim.cmd("syntax on")
  local routes = require("routes")
  routes.setup({ cmd = bin })

  local function client_alive(bufnr)
    local c = routes.client(bufnr)
    return c ~= nil
  end

  -- All waits share one time budget so that the whole run stays well under the
  -- runner's `timeout 60` even when every request goes unanswered.
  local budget_ms = tonumber(os.getenv("ROUTES_EDITOR_TEST_BUDGET_MS") or "") or 45000
  local deadline = vim.loop.now() + budget_ms
  local function remaining(ms)
    vim.loop.update_time()
    local left = deadline - vim.loop.now()
    expect(left > 0, "time budget of %d ms used up by earlier checks", budget_ms)
    return math.min(ms, left)
  end

  -- Waits up to `ms` (within the budget) for cond(); gives up early when
  -- `alive` (if given) turns false.
  local function wait(ms, cond, alive)
    ms = remaining(ms)
    local dead = false
    local ok = vim.wait(ms, function()
      if cond() then
        return true
      end
      if alive and not alive() then
        dead = true
        return true
      end
      return false
    end, 50)
    return ok and not dead and cond(), dead
  end

  -- The 0-based line and column of the first whole-word occurrence of `word`.
  local function find_line(bufnr, word)
    local pattern = "%f[%w_]" .. vim.pesc(word) .. "%f[^%w_]"
    for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
      local col = line:find(pattern)
      if col then
        return i - 1, col - 1
      end
    end
    error("fixture has no line with " .. needle)
  end

  local function diag_code(d)
    return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  end

  local function describe(diags)
    local parts = {}
    for _, d in ipairs(diags) do
      table.insert(parts, ("%d:%d %s [%s]"):format(d.lnum + 1, d.col + 1, d.message, tostring(diag_code(d))))
    end
    return "{" .. table.concat(parts, "; ") .. "}"
  end

  -- 1. Filetype, buffer settings, client start -----------------------------
  vim.cmd("edit " .. vim.fn.fnameescape(broken_path))
  local broken = vim.api.nvim_get_current_buf()
  local client

  check("*.routes gets filetype routes, syntax, indent and commentstring", function()
    expect(vim.bo[broken].filetype == "routes", "filetype is %q", vim.bo[broken].filetype)
    expect(vim.b[broken].current_syntax == "routes", "syntax is %s", tostring(vim.b[broken].current_syntax))
    expect(vim.bo[broken].commentstring == "// %s", "commentstring is %q", vim.bo[broken].commentstring)
    expect(vim.bo[broken].indentexpr:find("GetRoutesIndent"), "indentexpr is %q", vim.bo[broken].indentexpr)
  end)

  check("indentation (=) and syntax groups", function()
    local buf = vim.api.nvim_create_buf(false, true)
    vim.bo[buf].buftype = "nofile" -- keeps the server away from this scratch buffer
    vim.api.nvim_set_current_buf(buf)
    vim.bo[buf].filetype = "routes"
    local expected = {
      "/// Docs.",
      "screen Detail(",
      "  id: String",
      ") sheet",
      "root {",
      "  anyOf {",
      "    screen Home uses appStore {",
      "      if let detailStore { detail } else {",
      "        empty",
      "      }",
      "    }",
      "    // a comment { with a brace",
      "    wildcard Login { screen Login }",
      "  }",
      "}",
    }
    local flat = {}
    for i, l in ipairs(expected) do
      flat[i] = vim.trim(l)
    end
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, flat)
    vim.cmd("silent normal! gg=G")
    local got = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    expect(vim.deep_equal(got, expected), "indented:\n%s", table.concat(got, "\n"))
    local function group(lnum, col)
      return vim.fn.synIDattr(vim.fn.synID(lnum, col, 1), "name")
    end
    expect(group(1, 1) == "routesDocComment", "doc comment is %q", group(1, 1))
    expect(group(12, 5) == "routesComment", "comment is %q", group(12, 5))
    expect(group(5, 1) == "routesDeclKeyword", "root is %q", group(5, 1))
    expect(group(6, 3) == "routesBuilderKeyword", "anyOf is %q", group(6, 3))
    expect(group(7, 12) == "routesScreenName", "Home is %q", group(7, 12))
    expect(group(3, 3) == "routesLabel", "label is %q", group(3, 3))
    vim.cmd("bwipeout!")
  end)

  vim.api.nvim_set_current_buf(broken)
  local started = check("the language server starts and attaches, rooted at the .git directory", function()
    local ok, dead = wait(10000, function()
      local c = routes.client(broken)
      return c ~= nil and c.initialized == true
    end)
    client = routes.client(broken)
    expect(ok, "no initialized routes client attached within 10 s (client %s, dead=%s)", tostring(client and client.id), tostring(dead))
    expect(vim.lsp.buf_is_attached(broken, client.id), "buffer not attached")
    expect(client.config.root_dir == tmp, "root_dir is %s, expected %s", tostring(client.config.root_dir), tmp)
    local caps = client.server_capabilities or {}
    expect(caps.completionProvider ~= nil, "server announced no completionProvider")
  end)

  -- 2. Diagnostics --------------------------------------------------------------
  local got_diagnostics = false
  check("diagnostics: undefined-name published for `catalogStor`", function()
    expect(started, "no server")
    local ok = wait(15000, function()
      return #vim.diagnostic.get(broken) > 0
    end, function()
      return client_alive(broken)
    end)
    local diags = vim.diagnostic.get(broken)
    expect(ok, "no diagnostics within 15 s (server alive: %s)", tostring(client_alive(broken)))
    local line, col = find_line(broken, "catalogStor")
    local found
    for _, d in ipairs(diags) do
      if diag_code(d) == "undefined-name" then
        found = d
      end
    end
    expect(found, "no undefined-name diagnostic in %s", describe(diags))
    expect(found.severity == vim.diagnostic.severity.ERROR, "severity %s", tostring(found.severity))
    expect(found.source == "routes", "source %s", tostring(found.source))
    expect(found.lnum == line and found.col == col, "at %d:%d, expected %d:%d", found.lnum, found.col, line, col)
    expect(found.message:find("catalogStor", 1, true), "message %q does not name catalogStor", found.message)
    got_diagnostics = true
  end)

  check("diagnostics: fixing the name in the buffer (unsaved) clears the error", function()
    expect(got_diagnostics, "skipped: the error was never shown")
    local line, col = find_line(broken, "catalogStor")
    vim.api.nvim_buf_set_text(broken, line, col, line, col + #"catalogStor", { "catalogStore" })
    local ok = wait(10000, function()
      return #vim.diagnostic.get(broken, { severity = vim.diagnostic.severity.ERROR }) == 0
    end, function()
      return client_alive(broken)
    end)
    expect(ok, "errors still shown after the fix: %s", describe(vim.diagnostic.get(broken)))
  end)

  check("code action: the preferred quick fix for a misspelt name, applied, clears the error", function()
    expect(got_diagnostics, "skipped: the error was never shown")
    -- Misspell the name again (unsaved) and wait for its error.
    local line, col
    for i, l in ipairs(vim.api.nvim_buf_get_lines(broken, 0, -1, false)) do
      local at = l:find("ProductDetail uses catalogStore", 1, true)
      if at then
        line, col = i - 1, at - 1 + #"ProductDetail uses "
      end
    end
    expect(line, "no `ProductDetail uses catalogStore` line")
    vim.api.nvim_buf_set_text(broken, line, col, line, col + #"catalogStore", { "catalogStor" })
    local ok = wait(10000, function()
      return #vim.diagnostic.get(broken, { severity = vim.diagnostic.severity.ERROR }) > 0
    end, function()
      return client_alive(broken)
    end)
    expect(ok, "the misspelt name was not reported again")
    -- What `vim.lsp.buf.code_action()` sends: the cursor, and the diagnostics of its line
    -- as LSP diagnostics (what the server published).
    local sent = {}
    for _, d in ipairs(vim.diagnostic.get(broken, { lnum = line })) do
      table.insert(sent, vim.tbl_extend("keep", {
        range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
        severity = d.severity, message = d.message, source = d.source, code = diag_code(d),
      }, d.user_data and d.user_data.lsp or {}))
    end
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(broken) },
      range = { start = { line = line, character = 0 }, ["end"] = { line = line, character = 0 } },
      context = { diagnostics = sent },
    }
    local responses, err = vim.lsp.buf_request_sync(broken, "textDocument/codeAction", params, remaining(10000))
    expect(responses, "no code action response: %s", tostring(err))
    local chosen
    for _, response in pairs(responses) do
      expect(not response.err, "code action error: %s", vim.inspect(response.err))
      for _, action in ipairs(response.result or {}) do
        if action.isPreferred then
          chosen = action
        end
      end
    end
    expect(chosen, "no preferred action in %s", vim.inspect(responses))
    expect(chosen.title == "Use `catalogStore`", "preferred action %q", chosen.title)
    expect(chosen.kind == "quickfix", "kind %q", tostring(chosen.kind))
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
    local text = vim.api.nvim_buf_get_lines(broken, line, line + 1, false)[1]
    expect(text:find("ProductDetail uses catalogStore$"), "line after the fix: %q", text)
    ok = wait(10000, function()
      return #vim.diagnostic.get(broken, { severity = vim.diagnostic.severity.ERROR }) == 0
    end, function()
      return client_alive(broken)
    end)
    expect(ok, "errors still shown after the code action: %s", describe(vim.diagnostic.get(broken)))
  end)

  -- 3. :RoutesPreview -----------------------------------------------------------
  vim.cmd("edit " .. vim.fn.fnameescape(seed_path))
  local seed = vim.api.nvim_get_current_buf()

  check("a second file of the workspace reuses the same server", function()
    expect(started, "no server")
    local ok = wait(10000, function()
      return routes.client(seed) ~= nil
    end)
    expect(ok, "seed buffer not attached")
    expect(routes.client(seed).id == client.id, "a second client was started")
  end)

  local function preview_lines(source)
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      local ok, src = pcall(vim.api.nvim_buf_get_var, buf, "routes_preview_source")
      if ok and src == source then
        return buf, vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      end
    end
    return nil, {}
  end

  local function contains(lines, wanted)
    for _, l in ipairs(lines) do
      if l == wanted then
        return true
      end
    end
    return false
  end

  check(":RoutesPreview opens the routing tree in a scratch buffer", function()
    expect(started, "no server")
    vim.api.nvim_set_current_buf(seed)
    vim.cmd("RoutesPreview")
    local ok = wait(10000, function()
      local _, lines = preview_lines(seed)
      return #lines > 1
    end, function()
      return client_alive(seed)
    end)
    local buf, lines = preview_lines(seed)
    expect(ok, "no preview buffer within 10 s")
    expect(lines[1] == "root", "first line %q, expected root; text:\n%s", tostring(lines[1]), table.concat(lines, "\n"))
    for _, wanted in ipairs({
      "└─ conditional isLoggedIn",
      "   ├─ true: wildcard Home",
      "   │           │  └─ ↻ detail",
      "      └─ Login  uses loginStore",
    }) do
      expect(contains(lines, wanted), "preview lacks %q; text:\n%s", wanted, table.concat(lines, "\n"))
    end
    expect(#lines == 12, "preview has %d lines, expected 12", #lines)
    expect(vim.bo[buf].buftype == "nofile", "buftype %q", vim.bo[buf].buftype)
    expect(vim.bo[buf].bufhidden == "wipe", "bufhidden %q", vim.bo[buf].bufhidden)
    expect(vim.bo[buf].filetype == "routestree", "filetype %q", vim.bo[buf].filetype)
    expect(not vim.bo[buf].modifiable, "preview buffer is modifiable")
    expect(vim.api.nvim_get_current_buf() == buf, "preview window not focused")
    vim.cmd("close")
  end)

  check(":RoutesPreview PATH FLAG=false shows the resolution (path and flags reach the server)", function()
    expect(started, "no server")
    vim.api.nvim_set_current_buf(seed)
    vim.cmd("RoutesPreview Login isLoggedIn=false detailStore=absent")
    local ok = wait(10000, function()
      local _, lines = preview_lines(seed)
      return #lines > 0 and lines[1]:find("^environment:") ~= nil
    end, function()
      return client_alive(seed)
    end)
    local _, lines = preview_lines(seed)
    local text = table.concat(lines, "\n")
    expect(ok, "no resolution shown within 10 s; buffer:\n%s", text)
    expect(text:find("isLoggedIn=false", 1, true), "environment does not say isLoggedIn=false:\n%s", text)
    expect(text:find("detailStore=absent", 1, true), "environment does not say detailStore=absent:\n%s", text)
    expect(text:find("Login%s+built at"), "Login not built:\n%s", text)
    vim.cmd("close")
  end)

  check(":RoutesPreview with a path holding spaces and quotes (the README's example)", function()
    expect(started, "no server")
    vim.api.nvim_set_current_buf(seed)
    vim.cmd('RoutesPreview Home/Detail(id: "42")')
    local ok = wait(10000, function()
      local _, lines = preview_lines(seed)
      return #lines > 0 and lines[1]:find("^environment:") ~= nil
    end, function()
      return client_alive(seed)
    end)
    local _, lines = preview_lines(seed)
    local text = table.concat(lines, "\n")
    expect(ok, "no resolution shown within 10 s; buffer:\n%s", text)
    expect(text:find('Detail(id: "42")  built at', 1, true), "Detail(id: \"42\") not built:\n%s", text)
    vim.cmd("close")
  end)

  check(":RoutesPreview arguments: the path as written, flags and optionals around it", function()
    local cases = {
      { 'Home/Detail(id: "a b")  isLoggedIn=false', 'Home/Detail(id: "a b")', { isLoggedIn = false }, {} },
      { "detailStore=absent Login", "Login", {}, { detailStore = false } },
      { '  Home / Detail(id: "x\\" y")  ', 'Home / Detail(id: "x\\" y")', {}, {} },
      { "isLoggedIn=true", nil, { isLoggedIn = true }, {} },
      { "", nil, {}, {} },
    }
    for _, c in ipairs(cases) do
      local opts, err = routes.parse_preview_args(c[1])
      expect(opts, "%q: %s", c[1], tostring(err))
      expect(opts.path == c[2], "%q: path %s, expected %s", c[1], tostring(opts.path), tostring(c[2]))
      expect(vim.deep_equal(opts.flags, c[3]), "%q: flags %s", c[1], vim.inspect(opts.flags))
      expect(vim.deep_equal(opts.optionals, c[4]), "%q: optionals %s", c[1], vim.inspect(opts.optionals))
    end
    for _, bad in ipairs({ "Home x=true Detail", "isLoggedIn=maybe" }) do
      local opts, err = routes.parse_preview_args(bad)
      expect(opts == nil and err, "%q was accepted: %s", bad, vim.inspect(opts))
    end
    -- The old form, a list of words, still works.
    local opts = routes.parse_preview_args({ "Login", "isLoggedIn=false" })
    expect(opts.path == "Login" and opts.flags.isLoggedIn == false, "list form: %s", vim.inspect(opts))
  end)

  check("code lenses: resolved, and `routes.showPreview` runs in the plugin", function()
    expect(started, "no server")
    vim.api.nvim_set_current_buf(seed)
    expect(vim.lsp.commands["routes.showPreview"] ~= nil, "the plugin registered no routes.showPreview")
    vim.lsp.codelens.refresh()
    local lens
    local ok = wait(10000, function()
      for _, l in ipairs(vim.lsp.codelens.get(seed) or {}) do
        if l.command and l.command.title == "preview Home/Detail" then
          lens = l
        end
      end
      return lens ~= nil
    end, function()
      return client_alive(seed)
    end)
    local titles = {}
    for _, l in ipairs(vim.lsp.codelens.get(seed) or {}) do
      table.insert(titles, l.command and l.command.title or "?")
    end
    expect(ok, "no resolved lens `preview Home/Detail`; lenses: {%s}", table.concat(titles, ", "))
    vim.lsp.commands["routes.showPreview"](lens.command, { bufnr = seed, client_id = client.id })
    local shown = wait(10000, function()
      local _, lines = preview_lines(seed)
      return #lines > 0 and lines[1]:find("^environment:") ~= nil
    end)
    local _, lines = preview_lines(seed)
    local text = table.concat(lines, "\n")
    expect(shown, "the lens's preview was not shown:\n%s", text)
    expect(text:find("Detail%s+built at"), "Detail not built:\n%s", text)
    vim.cmd("close")
  end)

  -- 4. Completion -----------------------------------------------------------------
  check("completion after `screen ` in a builder position lists the screens", function()
    expect(started, "no server")
    vim.api.nvim_set_current_buf(seed)
    local line = find_line(seed, "empty")
    local indent = ("          ")
    -- Type a half-written builder where `empty` was (the server gets the change
    -- before the request: Neovim flushes pending changes on every request).
    vim.api.nvim_buf_set_lines(seed, line, line + 1, false, { indent .. "screen " })
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(seed) },
      position = { line = line, character = #indent + #"screen " },
      context = { triggerKind = 1 },
    }
    local responses, err = vim.lsp.buf_request_sync(seed, "textDocument/completion", params, remaining(10000))
    expect(responses, "no completion response: %s", tostring(err))
    local labels = {}
    for _, response in pairs(responses) do
      expect(not response.err, "completion error: %s", vim.inspect(response.err))
      local items = response.result and (response.result.items or response.result) or {}
      for _, item in ipairs(items) do
        labels[item.label] = true
      end
    end
    local names = vim.tbl_keys(labels)
    table.sort(names)
    for _, screen in ipairs({ "Home", "Settings", "Detail", "Login" }) do
      expect(labels[screen], "completion lacks screen %s; got {%s}", screen, table.concat(names, ", "))
    end
    expect(not labels["appStore"], "completion after `screen ` lists a dependency: {%s}", table.concat(names, ", "))
  end)

  -- 5. Formatting -------------------------------------------------------------------
  local messy_path = tmp .. "/app/Messy.routes"
  local messy_lines = {
    "screen   Home",
    "root {",
    "screen Home {",
    "  anyOf { screen Home",
    " screen Home }",
    "}",
    "}",
  }
  local formatted_lines = {
    "screen Home",
    "root {",
    "  screen Home {",
    "    anyOf {",
    "      screen Home",
    "      screen Home",
    "    }",
    "  }",
    "}",
  }
  write(messy_path, table.concat(messy_lines, "\n") .. "\n")

  -- Editors/nvim/README.md's format on save (vim.lsp.buf.format from 0.8, formatting_sync before).
  local function format_buffer(bufnr, timeout)
    if vim.lsp.buf.format then
      vim.lsp.buf.format({ bufnr = bufnr, timeout_ms = timeout })
    else
      vim.lsp.buf.formatting_sync(nil, timeout)
    end
  end

  check("formatting: textDocument/formatting lays the buffer out as `routes fmt` does", function()
    expect(started, "no server")
    vim.cmd("edit " .. vim.fn.fnameescape(messy_path))
    local messy = vim.api.nvim_get_current_buf()
    local ok = wait(10000, function()
      return routes.client(messy) ~= nil
    end)
    expect(ok, "Messy.routes not attached")
    local caps = routes.client(messy).server_capabilities or {}
    expect(caps.documentFormattingProvider, "server announced no documentFormattingProvider")
    format_buffer(messy, remaining(10000))
    local got = vim.api.nvim_buf_get_lines(messy, 0, -1, false)
    expect(vim.deep_equal(got, formatted_lines), "formatted:\n%s", table.concat(got, "\n"))

    -- Format on save, as the README sets it up.
    vim.api.nvim_create_autocmd("BufWritePre", {
      pattern = "*.routes",
      callback = function(args)
        format_buffer(args.buf, remaining(10000))
      end,
    })
    vim.api.nvim_buf_set_lines(messy, 0, -1, false, messy_lines)
    vim.cmd("silent write")
    local f = assert(io.open(messy_path, "r"))
    local saved = f:read("*a")
    f:close()
    expect(saved == table.concat(formatted_lines, "\n") .. "\n", "saved:\n%s", saved)
  end)

  -- 9. Links --------------------------------------------------------------------
  local links_path = tmp .. "/app/Links.routes"
  write(links_path, table.concat({
    "screen Home",
    "screen Detail(id: Int)",
    "screen Admin",
    "flag isPro",
    "/// An item, for subscribers.",
    "link item \"/items/{id}\" -> Home/Detail(id: id)",
    "link admin \"/admin\" -> Home/Admin",
    "root {",
    "  screen Home {",
    "    conditional isPro { screen Detail } else { empty }",
    "  }",
    "}",
    "",
  }, "\n"))

  check("links: an unbuildable link's diagnostic, and a link's condition on hover", function()
    expect(started, "no server")
    vim.cmd("edit " .. vim.fn.fnameescape(links_path))
    local buf = vim.api.nvim_get_current_buf()
    local ok = wait(10000, function()
      for _, d in ipairs(vim.diagnostic.get(buf)) do
        if diag_code(d) == "unbuildable-link" then
          return true
        end
      end
      return false
    end, function()
      return client_alive(buf)
    end)
    expect(ok, "no unbuildable-link diagnostic within 10 s: %s", describe(vim.diagnostic.get(buf)))
    local found
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if diag_code(d) == "unbuildable-link" then
        found = d
      end
    end
    local line = find_line(buf, "admin")
    expect(found.lnum == line, "unbuildable-link on line %d, expected %d", found.lnum + 1, line + 1)
    expect(found.message:find("Admin", 1, true), "message %q does not name Admin", found.message)

    local item_line, item_col = find_line(buf, "link item")
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = item_line, character = item_col + #"link i" },
    }
    local replies = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, remaining(10000)) or {}
    local text
    for _, reply in pairs(replies) do
      local contents = reply.result and reply.result.contents
      text = type(contents) == "table" and contents.value or contents
    end
    expect(type(text) == "string", "no hover on the link")
    expect(text:find("/items/{id}", 1, true), "hover %q lacks the pattern", text)
    expect(text:find("isPro", 1, true), "hover %q lacks the condition", text)
    expect(text:find("for subscribers", 1, true), "hover %q lacks the doc comment", text)
  end)
end, debug.traceback)

if not ok_all then
  results.failed = results.failed + 1
  out("FAIL - test script error:\n" .. tostring(err_all))
end
finish()
