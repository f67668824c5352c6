-- The daemon dies: one message, the buffers say disconnected, keys answer without a Lua error storm.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup({ socket = false })
local session = require('listd.session')
local uv = vim.uv or vim.loop

T.case('a killed stdio daemon: one warning naming the signal, buffers say disconnected', function()
  vim.cmd('Listd demo contacts')
  vim.cmd('split')
  vim.cmd('Listd open files')
  local pid = session.describe().pid
  local from = #T.messages + 1
  uv.kill(pid, 'sigkill')
  T.wait(function()
    return T.lines()[1]:match(' · disconnected$')
  end, 'files to say disconnected')
  T.wait(function()
    local other = vim.fn.bufnr('listd://contacts')
    return T.lines(other)[1]:match(' · disconnected$')
  end, 'contacts to say disconnected')
  T.settle(200)
  local warnings = T.notified(from, vim.log.levels.WARN)
  T.eq(1, #warnings, 'exactly one message: ' .. vim.inspect(warnings))
  T.ok(warnings[1]:match('connection closed') and warnings[1]:match('signal 9'), warnings[1])
end)

T.case('every key on a dead connection answers with at most one message, and no errors', function()
  vim.ui.select = function(items, _, on_choice)
    on_choice(items[1])
  end
  T.goto_item('Sources')
  for _, keys in ipairs({ '<CR>', 'za', 'zo', 'zc', 'zO', 'zC', 'zR', 'zM', 'gt', 'K', 'r' }) do
    local from = #T.messages + 1
    T.feed(keys)
    T.settle(30)
    T.ok(#T.notified(from) <= 2, keys .. ': ' .. vim.inspect(T.notified(from)))
  end
  T.eq({}, T.lua_errors(), 'no Lua errors')
  T.ok(vim.api.nvim_buf_get_name(0) == 'listd://files', 'still in the buffer')
end)

T.case('a daemon whose socket goes away: one message, buffer says disconnected', function()
  vim.cmd('only')
  local path, daemon = T.daemon()
  vim.cmd('Listd connect ' .. path)
  vim.cmd('Listd open live')
  T.wait(function()
    return T.lines()[1]:match("^live 'Build Queue' v%d+ · %w+ · selection single$")
  end, 'the live list')
  local from = #T.messages + 1
  uv.process_kill(daemon, 'sigterm')
  T.wait(function()
    return T.lines()[1]:match(' · disconnected$')
  end, 'live to say disconnected')
  T.settle(1200) -- the live list would have changed by now
  local warnings = T.notified(from, vim.log.levels.WARN)
  T.eq(1, #warnings, vim.inspect(warnings))
  T.ok(warnings[1]:match('connection closed'), warnings[1])
end)

T.run()
