-- :Listd lists (picker), :Listd open completion, :edit listd://LIST, :Listd info / close, unknown subcommands.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

T.case(':Listd lists offers the daemon’s lists and opens the chosen one', function()
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    on_choice(items[3])
  end
  vim.cmd('Listd lists')
  T.eq({
    'contacts — Contacts (18 rows, v0)',
    'settings — Settings (15 rows, v0)',
    'files — Files (12 rows, v0)',
  }, vim.list_slice(offered, 1, 3), 'the first three lists')
  local live = vim.tbl_filter(function(line)
    return line:match('^live — ') ~= nil
  end, offered)
  T.ok(#live == 1 and live[1]:match('^live — Build Queue %(%d+ rows, v%d+%)$'), vim.inspect(offered))
  T.ok(vim.tbl_contains(offered, 'processes — Processes (4 rows, v0)') and vim.tbl_contains(offered, 'inbox — Inbox (0 rows, v0)'),
    'the table and the empty list: ' .. vim.inspect(offered))
  T.eq('listd://files', vim.api.nvim_buf_get_name(0))
  T.eq("files 'Files' v0 · sidebar · selection single", T.lines()[1])
end)

T.case(':Listd with no subcommand is the picker; cancelling opens nothing', function()
  local buf = vim.api.nvim_get_current_buf()
  local asked = false
  vim.ui.select = function(_, _, on_choice)
    asked = true
    on_choice(nil)
  end
  vim.cmd('Listd')
  T.ok(asked, 'the picker was shown')
  T.eq(buf, vim.api.nvim_get_current_buf())
end)

T.case('completion: subcommands, then list ids from the daemon', function()
  T.eq({ 'close', 'connect', 'demo', 'disconnect', 'filter', 'info', 'lists', 'open', 'sort' }, vim.fn.getcompletion('Listd ', 'cmdline'))
  T.eq({ 'demo', 'disconnect' }, vim.fn.getcompletion('Listd d', 'cmdline'))
  T.eq({ 'contacts', 'files', 'inbox', 'live', 'processes', 'settings' }, vim.fn.getcompletion('Listd open ', 'cmdline'))
  T.eq({ 'settings' }, vim.fn.getcompletion('Listd open se', 'cmdline'))
end)

T.case(':edit listd://LIST opens a list like :Listd open', function()
  vim.cmd('edit listd://settings')
  T.eq("settings 'Settings' v0 · grouped · selection none", T.lines()[1])
  T.eq('settings', T.view().list)
  T.goto_item('mail')
  vim.cmd('edit')
  T.eq("settings 'Settings' v0 · grouped · selection none", T.lines()[1])
  T.eq('settings', T.view().list, ':edit again re-reads the list')
  T.eq(1, #vim.tbl_filter(function(v) return v.list == 'settings' end, vim.tbl_values(require('listd.buffer').views)))
end)

T.case(':Listd open of an open list goes to its window', function()
  vim.cmd('Listd open contacts')
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('split | enew')
  vim.cmd('Listd open contacts')
  T.eq(buf, vim.api.nvim_get_current_buf(), 'the same buffer')
  T.eq(2, #vim.api.nvim_list_wins(), 'no new window')
  vim.cmd('only')
end)

T.case('the open option splits', function()
  require('listd').setup({ cmd = { T.bin }, socket = T.socket, open = 'vsplit' })
  vim.cmd('Listd open files')
  T.eq(2, #vim.api.nvim_list_wins())
  T.eq('listd://files', vim.api.nvim_buf_get_name(0))
  vim.cmd('only')
  require('listd').setup({ cmd = { T.bin }, socket = T.socket })
end)

T.case(':Listd info describes the connection and the buffers', function()
  local from = #T.messages + 1
  vim.cmd('Listd info')
  local text = T.notified(from)[1]
  T.ok(text:find('connected over socket to ' .. T.socket, 1, true), text)
  T.ok(text:find('server listd 0.1.0, protocol 1', 1, true), text)
  T.ok(text:find(': files v0', 1, true), text)
end)

T.case(':Listd close closes the list buffer; unknown subcommands are reported', function()
  vim.cmd('Listd open files')
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('Listd close')
  T.ok(not vim.api.nvim_buf_is_valid(buf), 'closed')
  local from = #T.messages + 1
  -- Run through vim.cmd, a command's error message is the error vim.cmd raises (typed, it is shown).
  local ok, err = pcall(vim.cmd, 'Listd frobnicate')
  T.ok(not ok and err:match('unknown subcommand frobnicate'), tostring(err))
  T.ok(T.notified(from, vim.log.levels.ERROR)[1]:match('unknown subcommand frobnicate'), vim.inspect(T.notified(from)))
end)

T.case('loading the plugin twice defines nothing twice', function()
  local create, calls = vim.api.nvim_create_user_command, 0
  vim.api.nvim_create_user_command = function(...)
    calls = calls + 1
    return create(...)
  end
  vim.cmd('runtime! plugin/listd.lua')
  vim.api.nvim_create_user_command = create
  T.eq(0, calls, 'the second load returned early')
  T.eq(2, vim.fn.exists(':Listd'))
end)

T.case('custom keymaps replace the defaults; false leaves a key unmapped', function()
  require('listd').setup({ cmd = { T.bin }, socket = T.socket, keymaps = { select = 'x', refresh = false } })
  vim.cmd('Listd open contacts')
  T.eq('', vim.fn.maparg('<CR>', 'n'), '<CR> unmapped')
  T.eq('', vim.fn.maparg('r', 'n'), 'r unmapped')
  T.ok(vim.fn.maparg('x', 'n') ~= '', 'x mapped')
  T.ok(vim.fn.maparg('za', 'n') ~= '', 'za keeps its default')
  T.goto_item('hedy')
  T.feed('x')
  T.wait(function()
    return T.lines()[vim.fn.line('.')]:match('^● ')
  end, 'x selects')
end)

T.run()
