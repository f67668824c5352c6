-- The specs' harness: cases, assertions, waiting, key feeding, a second client; exits nvim with the result.
-- Environment: LISTD_BIN (the built daemon), LISTD_SOCKET (a running `listd --listen … --demo`, when
-- the spec needs one), LISTD_NVIM_ROOT (clients/nvim).
local T = {
  bin = os.getenv('LISTD_BIN'),
  socket = os.getenv('LISTD_SOCKET'),
  root = os.getenv('LISTD_NVIM_ROOT'),
  cases = {},
  messages = {},
}

local function out(s)
  io.stderr:write(s .. '\n')
  io.stderr:flush()
end
T.out = out

-- Every vim.notify goes to T.messages (and the output), so specs can assert on messages, and on to
-- Neovim's own vim.notify, so that a message Neovim would lose or turn into an error is lost or
-- fails here too.
local builtin_notify = vim.notify
vim.notify = function(message, level)
  T.messages[#T.messages + 1] = { message = message, level = level or vim.log.levels.INFO }
  out('  notify[' .. tostring(level or vim.log.levels.INFO) .. '] ' .. message)
  builtin_notify(message, level)
end

---Loads the plugin (as a plugin manager would) and sets it up with the built daemon.
---@param opts table|nil extra setup options
function T.setup(opts)
  assert(T.bin and T.bin ~= '', 'LISTD_BIN is not set')
  vim.cmd('runtime! plugin/listd.lua')
  require('listd').setup(vim.tbl_deep_extend('force', { cmd = { T.bin }, socket = T.socket }, opts or {}))
end

---Registers a case; T.run() runs them in order.
---@param name string
---@param fn function
function T.case(name, fn)
  T.cases[#T.cases + 1] = { name = name, fn = fn }
end

local function show(value)
  return type(value) == 'string' and value or vim.inspect(value)
end

---Fails unless `actual` deep-equals `expected`.
function T.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(string.format('%s\nexpected: %s\n  actual: %s', what or 'values differ', show(expected), show(actual)), 2)
  end
end

---Fails unless `cond` holds.
function T.ok(cond, what)
  if not cond then
    error(what or 'assertion failed', 2)
  end
  return cond
end

---Waits until `cond()` is truthy (processing events), failing with `what` after `timeout` ms.
function T.wait(cond, what, timeout)
  local value
  local ok = vim.wait(timeout or 8000, function()
    value = cond()
    return value
  end, 10)
  if not ok then
    error('timed out waiting for ' .. (what or 'a condition'), 2)
  end
  return value
end

---Lets pending callbacks run for `ms` milliseconds.
function T.settle(ms)
  vim.wait(ms or 100, function()
    return false
  end, 10)
end

---The lines of a buffer (default: current).
function T.lines(buf)
  return vim.api.nvim_buf_get_lines(buf or 0, 0, -1, false)
end

---The list buffer's view (default: current buffer).
function T.view(buf)
  return require('listd.buffer').views[buf or vim.api.nvim_get_current_buf()]
end

---The id of the item under the cursor, or the key of the line ('h:SECTION', 'title', …).
function T.cursor_item()
  local view = T.view()
  local key = view.rendered.keys[vim.api.nvim_win_get_cursor(0)[1]]
  return key and key:sub(1, 2) == 'i:' and key:sub(3) or key
end

---Puts the cursor on an item's line (it must be visible).
function T.goto_item(id)
  T.ok(require('listd.buffer').goto_item(T.view(), id), 'item not visible: ' .. id)
end

---Types keys as a user would (mappings apply).
function T.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'mx', false)
end

---Waits until the current list buffer is at `version` or later.
function T.wait_version(version, buf)
  T.wait(function()
    local view = T.view(buf)
    return view and view.mirror and view.mirror.version >= version and not view.draw_pending
  end, 'the buffer to reach version ' .. version)
end

---A second, independent client of the spec's daemon socket (initialized).
---@return table connection (listd.rpc)
function T.second_client(handlers)
  assert(T.socket, 'this spec needs LISTD_SOCKET')
  local rpc = require('listd.rpc')
  local conn = assert(rpc.connect(T.socket, handlers))
  assert(rpc.initialize(conn))
  return conn
end

---Starts a private `listd --listen DIR/s --stay --demo`, stopped when the spec ends; returns the socket path.
---@return string path
---@return userdata process handle (uv)
function T.daemon()
  local uv = vim.uv or vim.loop
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p', tonumber('700', 8))
  local path = dir .. '/s'
  local handle = uv.spawn(T.bin, { args = { '--listen', path, '--stay', '--demo' } }, function() end)
  T.daemons[#T.daemons + 1] = handle
  T.wait(function()
    local stat = uv.fs_stat(path)
    return stat and stat.type == 'socket'
  end, 'the socket ' .. path)
  return path, handle
end
T.daemons = {}

---A request on `conn` that must succeed; returns its result.
function T.call(conn, method, params)
  local result, err = conn:request_sync(method, params, 8000)
  if err then
    error(method .. ' failed: ' .. vim.inspect(err), 2)
  end
  return result
end

---Messages notified since index `from` at `level` or above.
function T.notified(from, level)
  local found = {}
  for i = from or 1, #T.messages do
    if T.messages[i].level >= (level or vim.log.levels.INFO) then
      found[#found + 1] = T.messages[i].message
    end
  end
  return found
end

---Lua errors Neovim reported (callbacks, mappings), from :messages: E123: …, Error executing …, tracebacks
---(not the plugin's own error messages, which Neovim shows after "Error detected while processing …").
function T.lua_errors()
  local messages = vim.fn.execute('messages')
  local errors = {}
  for line in messages:gmatch('[^\n]+') do
    if line:match('^E%d+') or line:match('Error executing') or line:match('stack traceback') then
      errors[#errors + 1] = line
    end
  end
  return errors
end

---Runs the cases, prints each result, and quits: exit status 0 when all passed, 1 otherwise.
function T.run()
  local failed = 0
  local start = (vim.uv or vim.loop).hrtime()
  for _, case in ipairs(T.cases) do
    local ok, err = xpcall(case.fn, debug.traceback)
    if ok and #T.lua_errors() > 0 then
      ok, err = false, 'Neovim reported errors:\n' .. table.concat(T.lua_errors(), '\n')
    end
    if ok then
      out('ok   ' .. case.name)
    else
      failed = failed + 1
      out('FAIL ' .. case.name .. '\n' .. tostring(err))
    end
  end
  out(string.format('%d cases, %d failed (%.1f s)', #T.cases, failed, ((vim.uv or vim.loop).hrtime() - start) / 1e9))
  pcall(function()
    require('listd.session').disconnect()
  end)
  for _, handle in ipairs(T.daemons) do
    pcall((vim.uv or vim.loop).process_kill, handle, 'sigterm')
  end
  vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
end

return T
