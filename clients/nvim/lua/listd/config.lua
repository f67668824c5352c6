-- The plugin's options: documented defaults (see :help listd-setup) merged with the user's.
local M = {}

---The defaults, documented in doc/listd.txt under |listd-setup|.
M.defaults = {
  -- The daemon to spawn over stdio when no socket is configured; `:Listd demo` appends `--demo`.
  cmd = { 'listd' },
  -- nil: spawn `cmd`; a path: connect to that Unix socket; true: the daemon's default socket path.
  socket = nil,
  -- Milliseconds to wait for an answer in synchronous requests (initialize, list/all, …).
  timeout = 5000,
  -- How a list buffer opens: 'edit', 'split', 'vsplit' or 'tab'.
  open = 'edit',
  -- Buffer-local mappings of list buffers; set one to false to leave it unmapped.
  keymaps = {
    select = '<CR>',
    toggle_outline = 'za',
    expand = 'zo',
    collapse = 'zc',
    expand_recursive = 'zO',
    collapse_recursive = 'zC',
    expand_all = 'zR',
    collapse_all = 'zM',
    actions = 'ga',
    toggle_switch = 'gt',
    details = 'K',
    refresh = 'r',
    close = 'q',
  },
}

M.options = vim.deepcopy(M.defaults)

---Merges user options over the defaults.
---@param opts table|nil options as passed to require('listd').setup()
---@return table the options in effect
function M.set(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if type(M.options.cmd) == 'string' then
    M.options.cmd = { M.options.cmd }
  end
  return M.options
end

---The daemon's default socket path: $XDG_RUNTIME_DIR/listd/listd.sock on Linux, $TMPDIR/listd/listd.sock on
---macOS (see listd.platform), else /tmp/listd-$UID/listd.sock; a relative directory counts as unset.
---@return string
function M.default_socket()
  local base = require('listd.platform').default_socket_base()
  if base then
    return base .. '/listd/listd.sock'
  end
  local uid = (vim.uv or vim.loop).getuid and (vim.uv or vim.loop).getuid() or vim.fn.trim(vim.fn.system('id -u'))
  return '/tmp/listd-' .. tostring(uid) .. '/listd.sock'
end

---The socket to connect to under the current options, or nil to spawn `cmd`.
---@return string|nil
function M.socket_path()
  local socket = M.options.socket
  if socket == true then
    return M.default_socket()
  elseif type(socket) == 'string' and socket ~= '' then
    return vim.fn.expand(socket)
  end
  return nil
end

return M
