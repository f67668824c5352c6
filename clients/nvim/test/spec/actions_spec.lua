-- ga (actions through vim.ui.select → event/action), gt (event/toggle), r (event/refresh), K (details).
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

-- A vim.ui.select that records what it was offered and picks the item `choose(items)` returns.
local offered
local function stub_select(choose)
  vim.ui.select = function(items, opts, on_choice)
    offered = { prompt = opts.prompt, labels = vim.tbl_map(opts.format_item or tostring, items) }
    on_choice(choose(items))
  end
end

local function pick(id)
  stub_select(function(items)
    for _, item in ipairs(items) do
      if item.id == id then
        return item
      end
    end
  end)
end

local function line()
  return T.lines()[vim.fn.line('.')]
end

T.case('ga offers swipe and context-menu actions once each, and favorite stars the contact', function()
  vim.cmd('Listd open contacts')
  T.goto_item('ada')
  pick('favorite')
  T.feed('ga')
  T.eq({ prompt = 'Action on Ada Lovelace:', labels = { 'Favorite', 'Archive', 'Delete (destructive)', 'Copy Email', 'Call' } }, offered)
  T.wait(function()
    return line():find('<star.fill>', 1, true)
  end, 'the demo owner to star ada')
  T.eq('    Ada Lovelace · ada@analytical.org  <star.fill> [1] ›', line())
end)

T.case('ga archive changes the secondary text; cancelling sends nothing', function()
  T.goto_item('alan')
  pick('archive')
  T.feed('ga')
  T.wait(function()
    return line() == '    Alan Turing · archived  ›'
  end, 'archived')
  local version = T.view().mirror.version
  stub_select(function()
    return nil
  end)
  T.feed('ga')
  T.settle(300)
  T.eq(version, T.view().mirror.version, 'a cancelled choice changes nothing')
end)

T.case('ga delete removes the item and the cursor moves on', function()
  T.goto_item('alan')
  pick('delete')
  T.feed('ga')
  T.wait(function()
    return T.cursor_item() == 'barbara'
  end, 'alan deleted, cursor on barbara')
end)

T.case('ga offers pop-up menu actions; the daemon accepts the choice', function()
  vim.cmd('Listd open settings')
  T.goto_item('text-size')
  local from = #T.messages + 1
  pick('large')
  local sent
  local session = require('listd.session')
  local request = session.request
  session.request = function(method, params, callback)
    return request(method, params, function(err, result)
      sent = { method = method, params = params, err = err, result = result }
      callback(err, result)
    end)
  end
  T.feed('ga')
  T.wait(function()
    return sent
  end, 'the answer to event/action')
  session.request = request
  T.eq({ 'Small', 'Medium', 'Large' }, offered.labels)
  T.eq({ 'event/action', { list = 'settings', item = 'text-size', action = 'large' }, nil },
    { sent.method, sent.params, sent.err })
  T.eq('settings', sent.result.list)
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'no warnings')
end)

T.case('ga on an item without actions says so', function()
  T.goto_item('calendar')
  local from = #T.messages + 1
  offered = nil
  T.feed('ga')
  T.eq(nil, offered, 'no menu')
  T.ok(T.notified(from)[1]:match('has no actions'), vim.inspect(T.notified(from)))
end)

T.case('gt flips a toggle (the owner changes it), both ways', function()
  T.goto_item('airplane')
  T.feed('gt')
  T.wait(function()
    return line() == '    Airplane Mode  [on]'
  end, 'airplane mode on')
  T.feed('gt')
  T.wait(function()
    return line() == '    Airplane Mode  [off]'
  end, 'airplane mode off')
end)

T.case('r on the live list asks its owner to refresh, and says when it has', function()
  vim.cmd('Listd open live')
  local from = #T.messages + 1
  T.feed('r')
  T.wait(function()
    for _, message in ipairs(T.notified(from)) do
      if message:match('^listd: refreshed live %(v%d+%)$') then
        return true
      end
    end
  end, 'the refresh message')
end)

T.case('r on a list without owner reports the daemon’s error', function()
  local other = T.second_client()
  T.call(other, 'list/create', { list = 'orphan', content = { sections = { { id = 's', items = { { id = 'a', text = 'A' } } } } } })
  other:close()
  vim.cmd('Listd open orphan')
  local from = #T.messages + 1
  T.feed('r')
  T.wait(function()
    return #T.notified(from, vim.log.levels.WARN) > 0
  end, 'a warning')
  T.ok(T.notified(from, vim.log.levels.WARN)[1]:lower():match('owner'), T.notified(from, vim.log.levels.WARN)[1])
end)

T.case('K shows the item’s details in a floating window', function()
  vim.cmd('Listd open contacts')
  T.goto_item('grace')
  local before = #vim.api.nvim_list_wins()
  T.feed('K')
  local float = T.wait(function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        return win
      end
    end
  end, 'a floating window')
  local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n')
  T.ok(text:find('data.email: "grace@navy.mil"', 1, true) and text:find('id: grace', 1, true), text)
  T.eq(before + 1, #vim.api.nvim_list_wins())
  vim.api.nvim_win_close(float, true)
end)

T.case('q closes the list buffer and unsubscribes', function()
  local other = T.second_client()
  local subscribers = T.call(other, 'list/info', { list = 'contacts' }).subscribers
  local buf = vim.api.nvim_get_current_buf()
  T.feed('q')
  T.ok(not vim.api.nvim_buf_is_valid(buf), 'buffer wiped')
  T.wait(function()
    return T.call(other, 'list/info', { list = 'contacts' }).subscribers == subscribers - 1
  end, 'one subscriber less')
end)

T.run()
