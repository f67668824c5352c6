-- Stdio mode: :Listd demo spawns the daemon, :Listd disconnect ends it, a new daemon takes the buffers over.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup({ socket = false })
local session = require('listd.session')
local uv = vim.uv or vim.loop

T.case(':Listd demo spawns `cmd --demo` over stdio and opens the list', function()
  vim.cmd('Listd demo contacts')
  local d = session.describe()
  T.eq({ true, 'stdio', T.bin .. ' --demo' }, { d.connected, d.transport, d.target })
  T.ok(d.pid and d.pid > 0, 'a pid')
  T.eq("contacts 'Contacts' v0 · plain · selection multiple", T.lines()[1])
  T.eq('    Ada Lovelace · ada@analytical.org  [1] ›', T.lines()[3])
end)

T.case('the spawned daemon serves changes made through the buffer', function()
  T.goto_item('edsger')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[vim.fn.line('.')]:match('^● ')
  end, 'the selection mark')
  local selection = session.conn:request_sync('query/selection', { list = 'contacts' })
  T.eq('edsger', selection.items[1].id)
end)

T.case(':Listd disconnect shuts the daemon down; the buffer says disconnected', function()
  local conn = session.conn
  vim.cmd('Listd disconnect')
  T.wait(function()
    return conn.exit_code ~= nil
  end, 'the daemon to exit')
  T.eq(0, conn.exit_code, 'exit code after shutdown and exit')
  T.wait(function()
    return T.lines()[1]:match(' · disconnected$')
  end, 'the title to say disconnected')
  T.eq(false, session.connected())
end)

T.case('keys in a disconnected buffer say so once per press, without errors', function()
  local from = #T.messages + 1
  T.feed('<CR>')
  T.wait(function()
    return #T.notified(from, vim.log.levels.WARN) == 1
  end, 'one warning')
  T.ok(T.notified(from, vim.log.levels.WARN)[1]:match('not connected'), T.notified(from, vim.log.levels.WARN)[1])
end)

T.case('a new :Listd demo resubscribes the open buffer on the new daemon', function()
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('Listd demo')
  T.wait(function()
    return T.lines(buf)[1] == "contacts 'Contacts' v0 · plain · selection multiple"
  end, 'the fresh list')
  T.eq(buf, vim.api.nvim_get_current_buf())
  T.ok(not T.lines()[vim.fn.line('.')]:match('^● '), 'a fresh daemon has no selection')
  T.eq('edsger', T.cursor_item(), 'the cursor kept its item')
end)

T.case('a sorted view is made again on a new daemon, sorted as before', function()
  vim.cmd('Listd open processes')
  vim.cmd('Listd sort pid desc')
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.api.nvim_buf_get_name(buf):match('^listd://(processes·nvim%-%d+)$')
  T.ok(id, vim.api.nvim_buf_get_name(buf))
  local from = #T.messages + 1
  vim.cmd('Listd demo')
  T.wait(function()
    local view = T.view(buf)
    return view and view.mirror and not view.status and not view.draw_pending
  end, 'the view subscribed again, got ' .. vim.inspect(T.lines(buf)[1]))
  T.eq({ { field = 'cells.pid', descending = true } }, session.conn:request_sync('view/info', { view = id }).sort, 'the same definition')
  T.eq('i:p4', T.view(buf).rendered.keys[3], 'the highest PID first')
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'no "no such list" warning')
end)

T.case('a daemon without --demo has no lists; :Listd lists says so', function()
  vim.cmd('Listd disconnect')
  vim.cmd('enew')
  local from = #T.messages + 1
  vim.cmd('Listd lists')
  T.ok(vim.tbl_contains(T.notified(from), 'listd: the daemon has no lists'), vim.inspect(T.notified(from)))
  T.eq(T.bin, session.describe().target)
end)

T.case('a cmd that is not executable is reported, not raised', function()
  vim.cmd('Listd disconnect')
  require('listd').setup({ cmd = { '/nonexistent/listd' } })
  local from = #T.messages + 1
  vim.cmd('Listd open contacts')
  T.wait(function()
    return T.notified(from, vim.log.levels.ERROR)[1]
  end, 'the error message')
  T.ok(T.notified(from, vim.log.levels.ERROR)[1]:match('cannot start /nonexistent/listd'), vim.inspect(T.notified(from)))
  T.ok(T.lines()[1]:match('disconnected'), T.lines()[1])
end)

T.case('the socket option connects to a daemon’s socket instead of spawning', function()
  local path, daemon = T.daemon()
  require('listd').setup({ cmd = { '/nonexistent/listd' }, socket = path })
  vim.cmd('bwipeout!')
  vim.cmd('Listd open settings')
  T.eq({ 'socket', path }, { session.describe().transport, session.describe().target })
  T.eq("settings 'Settings' v0 · grouped · selection none", T.lines()[1])
  vim.cmd('Listd disconnect')
  uv.process_kill(daemon, 'sigterm')
end)

T.run()
