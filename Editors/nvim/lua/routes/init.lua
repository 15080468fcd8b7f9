-- routes.nvim: Neovim support for `.routes` files (ComposableNavigator
-- navigation trees) through the `routes lsp` language server.
--
--   require("routes").setup({ cmd = "/path/to/routes" })
--
-- starts one `routes lsp` per workspace root (the nearest directory holding a
-- root marker such as `.git`, else the file's directory), attaches it to every
-- buffer of filetype `routes`, and defines `:RoutesPreview`.
-- Works with Neovim 0.7 and later: on 0.11 and later the server is configured
-- with vim.lsp.config and started by vim.lsp.enable; on 0.8 to 0.10 with
-- vim.lsp.start; on 0.7 with vim.lsp.start_client (deprecated since 0.11).

local M = {}

local defaults = {
  -- The `routes` executable (a string), or the whole command (a list).
  cmd = nil,
  -- Files or directories whose presence marks the workspace root.
  root_markers = { ".git" },
  -- Start the server when a `routes` buffer is opened.
  autostart = true,
  -- Passed to the client's configuration as they are.
  capabilities = nil,
  on_attach = nil,
  flags = nil,
  -- The server's initialization options: `{ pullDiagnostics = true }` has
  -- Neovim 0.10 and later pull diagnostics instead of receiving them.
  init_options = nil,
  -- Where :RoutesPreview opens its window (a command modifier).
  preview_split = "botright",
  -- Show the server's code lenses (`preview Home/Detail` above each screen)
  -- and refresh them when a buffer is entered, left in normal mode or saved.
  codelens = true,
}

M.config = vim.deepcopy(defaults)

local clients = {} -- root dir -> client id

local function notify(msg, level)
  vim.notify("routes: " .. msg, level or vim.log.levels.INFO)
end

--- The server command for a config.
function M.command(config)
  local cmd = (config or M.config).cmd
  if type(cmd) == "table" then
    return vim.deepcopy(cmd)
  end
  return { cmd or "routes", "lsp" }
end

--- The workspace root of a buffer: the nearest directory holding one of
--- `root_markers`, else the buffer's directory (the current directory for an
--- unnamed buffer).
function M.root_dir(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.loop.cwd()
  local cur = dir
  while cur and cur ~= "" do
    for _, marker in ipairs(M.config.root_markers or {}) do
      if vim.loop.fs_stat(cur .. "/" .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ":h")
    if parent == cur then
      break
    end
    cur = parent
  end
  return dir
end

local function is_stopped(client)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:is_stopped()
  end
  return client.is_stopped()
end

local function request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function buffer_clients(bufnr)
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients({ bufnr = bufnr })
  end
  local out = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    table.insert(out, client)
  end
  return out
end

--- The routes language server attached to a buffer (ours, or one configured
--- elsewhere, e.g. through nvim-lspconfig, named "routes" or announcing the
--- `routesPreview` capability), or nil.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  for _, client in ipairs(buffer_clients(bufnr)) do
    local caps = client.server_capabilities or {}
    local experimental = caps.experimental or {}
    if not is_stopped(client) and (client.name == "routes" or experimental.routesPreview) then
      return client
    end
  end
  return nil
end

--- The client configuration for a workspace root (nil: Neovim finds it).
local function client_config(root)
  local config = M.config
  local out = {
    name = "routes",
    cmd = M.command(config),
    capabilities = config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    on_attach = function(client, bufnr)
      M.on_attach(client, bufnr)
      if config.on_attach then
        config.on_attach(client, bufnr)
      end
    end,
    flags = config.flags,
    init_options = config.init_options,
  }
  if root then
    out.root_dir = root
    out.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  end
  return out
end

--- Whether Neovim has vim.lsp.config and vim.lsp.enable (0.11 and later).
function M.has_lsp_config()
  return vim.lsp.config ~= nil and vim.lsp.enable ~= nil and vim.fn.has("nvim-0.11") == 1
end

local function ensure_client(root)
  local id = clients[root]
  if id then
    local client = vim.lsp.get_client_by_id(id)
    if client and not is_stopped(client) then
      return id
    end
    clients[root] = nil
  end
  local config = client_config(root)
  config.on_exit = function(_, _, client_id)
    if clients[root] == client_id then
      clients[root] = nil
    end
  end
  -- vim.lsp.start_client exists up to 0.11 (deprecated there); this path is for 0.7.
  id = vim.lsp.start_client(config)
  if id then
    clients[root] = id
  end
  return id
end

--- Starts (or reuses) the server for the buffer's workspace root and attaches
--- it. Returns the client id, or nil when the server could not be started.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local root = M.root_dir(bufnr)
  if vim.lsp.start then -- 0.8+: starts a client or reuses the one with this name and root
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = ensure_client(root)
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- What the plugin does for every buffer the server attaches to: code lenses.
function M.on_attach(client, bufnr)
  local caps = client.server_capabilities or {}
  if M.config.codelens and caps.codeLensProvider and vim.lsp.codelens then
    local group = vim.api.nvim_create_augroup("routes_codelens_" .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "BufWritePost" }, {
      group = group,
      buffer = bufnr,
      desc = "routes: refresh the code lenses",
      callback = function()
        pcall(vim.lsp.codelens.refresh)
      end,
    })
    if vim.api.nvim_get_current_buf() == bufnr then
      pcall(vim.lsp.codelens.refresh)
    end
  end
end

-- Preview ------------------------------------------------------------------

local function preview_buffer_for(source)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(buf) then
      local ok, src = pcall(vim.api.nvim_buf_get_var, buf, "routes_preview_source")
      if ok and src == source then
        return buf
      end
    end
  end
  return nil
end

--- Shows `text` in the preview scratch buffer of `source`; returns that buffer.
function M.show_preview(source, text)
  local lines = vim.split(text or "", "\n", { plain = true })
  if #lines > 1 and lines[#lines] == "" then
    table.remove(lines)
  end
  local buf = preview_buffer_for(source)
  if not buf then
    buf = vim.api.nvim_create_buf(false, true)
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "wipe"
    vim.bo[buf].swapfile = false
    vim.api.nvim_buf_set_var(buf, "routes_preview_source", source)
    local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(source), ":t")
    pcall(vim.api.nvim_buf_set_name, buf, "routes-preview://" .. source .. "/" .. name)
    vim.api.nvim_buf_set_keymap(buf, "n", "q", "<cmd>close<CR>", { noremap = true, silent = true })
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  if vim.bo[buf].filetype ~= "routestree" then
    vim.bo[buf].filetype = "routestree"
  end
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd((M.config.preview_split or "botright") .. " split")
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_height(win, math.max(3, math.min(#lines + 1, math.floor(vim.o.lines / 2))))
    vim.wo[win].wrap = false
    vim.wo[win].number = false
    vim.wo[win].list = false
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

--- Sends `routes/preview` for a buffer and shows the text in a scratch buffer.
--- opts: bufnr, path (a path literal such as "Home/Detail", or nil for the
--- routing tree), flags ({name = bool}), optionals ({name = bool}),
--- params (the request's params as a whole, e.g. a code lens's argument:
--- then path, flags and optionals are not read), on_done (called with the
--- preview buffer and the result).
function M.preview(opts)
  opts = opts or {}
  local source = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  local client = M.client(source)
  if not client then
    notify("no routes language server is attached to this buffer", vim.log.levels.ERROR)
    return false
  end
  local function object(t)
    if t == nil or next(t) == nil then
      return vim.empty_dict()
    end
    return t
  end
  local params = opts.params or {
    textDocument = { uri = vim.uri_from_bufnr(source) },
    path = opts.path or vim.NIL,
    flags = object(opts.flags),
    optionals = object(opts.optionals),
  }
  request(client, "routes/preview", params, function(err, result)
    if err then
      notify("routes/preview: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    if not vim.api.nvim_buf_is_valid(source) then
      return
    end
    local buf = M.show_preview(source, result and result.text or "")
    if opts.on_done then
      opts.on_done(buf, result)
    end
  end, source)
  return true
end

--- Parses the arguments of :RoutesPreview, the text after the command as
--- typed: `NAME=true|false` sets a flag, `NAME=present|absent` an optional,
--- and the rest is the path, kept as written (it may hold spaces and quoted
--- strings: `Home/Detail(id: "42")`). Words are separated by spaces outside
--- double quotes; the assignments may come before or after the path, not
--- inside it. A list of words (the old form) is read as those words joined
--- by spaces.
function M.parse_preview_args(args)
  if type(args) == "table" then
    args = table.concat(args, " ")
  end
  args = args or ""
  local opts = { flags = {}, optionals = {} }
  local words = {}
  local i, n = 1, #args
  while i <= n do
    if args:sub(i, i):match("%s") then
      i = i + 1
    else
      local start, quoted = i, false
      while i <= n do
        local c = args:sub(i, i)
        if quoted then
          if c == "\\" then
            i = i + 1
          elseif c == '"' then
            quoted = false
          end
        elseif c == '"' then
          quoted = true
        elseif c:match("%s") then
          break
        end
        i = i + 1
      end
      table.insert(words, { text = args:sub(start, i - 1), first = start, last = i - 1 })
    end
  end
  local path_first, path_last, after_path = nil, nil, false
  for _, word in ipairs(words) do
    local name, value = word.text:match("^([%a_][%w_]*)=(%a+)$")
    if name and (value == "true" or value == "false") then
      opts.flags[name] = value == "true"
      after_path = path_first ~= nil
    elseif name and (value == "present" or value == "absent") then
      opts.optionals[name] = value == "present"
      after_path = path_first ~= nil
    elseif name then
      return nil, ("%s: expected NAME=true|false (a flag) or NAME=present|absent (an optional)"):format(word.text)
    elseif after_path then
      return nil, "only one path may be given (flags and optionals go before or after it): " .. args
    else
      path_first = path_first or word.first
      path_last = word.last
    end
  end
  if path_first then
    opts.path = args:sub(path_first, path_last)
  end
  return opts
end

local function preview_command(command)
  local opts, err = M.parse_preview_args(command.args)
  if not opts then
    notify(err, vim.log.levels.ERROR)
    return
  end
  M.preview(opts)
end

--- Runs a code lens's `routes.showPreview`: its one argument is the params of
--- `routes/preview`.
function M.run_preview_command(command, ctx)
  local params = command.arguments and command.arguments[1]
  if type(params) ~= "table" then
    notify("routes.showPreview: expected the params of routes/preview", vim.log.levels.ERROR)
    return
  end
  local bufnr = (ctx and ctx.bufnr) or vim.api.nvim_get_current_buf()
  M.preview({ bufnr = bufnr, params = params })
end

-- Setup ----------------------------------------------------------------------

function M.setup(opts)
  M.config = vim.tbl_extend("force", vim.deepcopy(defaults), opts or {})
  -- On 0.11+, Neovim starts and attaches the server itself (vim.lsp.enable).
  local enabled = M.config.autostart and M.has_lsp_config()
  if enabled then
    local config = client_config(nil)
    config.filetypes = { "routes" }
    config.root_dir = function(bufnr, on_dir)
      if vim.bo[bufnr].buftype == "" then
        on_dir(M.root_dir(bufnr))
      end
    end
    vim.lsp.config("routes", config)
    vim.lsp.enable("routes")
  end

  -- Code lenses run `routes.showPreview` on the client side.
  vim.lsp.commands["routes.showPreview"] = M.run_preview_command

  local group = vim.api.nvim_create_augroup("routes_lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "routes",
    desc = "routes: comment string and language server",
    callback = function(args)
      vim.bo[args.buf].commentstring = "// %s"
      if M.config.autostart and not enabled then
        M.attach(args.buf)
      end
    end,
  })

  vim.api.nvim_create_user_command("RoutesPreview", preview_command, {
    nargs = "*",
    desc = "Show the routing tree (or, given a path, its resolution) of the current .routes file",
  })

  -- Buffers opened before setup().
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == "routes" then
      vim.bo[buf].commentstring = "// %s"
      if M.config.autostart and not enabled then
        M.attach(buf)
      end
    end
  end
end

return M
