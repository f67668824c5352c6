-- <CR> selects and deselects through the daemon (event/select, event/deselect); marks follow the selection.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()

local function selection(list)
  local ids = {}
  for _, item in ipairs(T.call(other, 'query/selection', { list = list }).items) do
    ids[#ids + 1] = item.id
  end
  table.sort(ids)
  return ids
end

local function line_of(id)
  return T.view().rendered.line_of['i:' .. id]
end

T.case('<CR> selects the item under the cursor: the mark shows, the daemon confirms', function()
  vim.cmd('Listd open contacts')
  T.goto_item('barbara')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[line_of('barbara')]:match('^● ')
  end, 'the mark on barbara')
  T.eq({ 'barbara' }, selection('contacts'), 'query/selection')
  T.eq('barbara', T.cursor_item(), 'the cursor stays')
end)

T.case('multiple selection: a second <CR> elsewhere adds to it', function()
  T.goto_item('grace')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[line_of('grace')]:match('^● ')
  end, 'the mark on grace')
  T.eq({ 'barbara', 'grace' }, selection('contacts'))
end)

T.case('<CR> on a selected item deselects it', function()
  T.goto_item('barbara')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[line_of('barbara')]:match('^  ')
  end, 'the mark to leave barbara')
  T.eq({ 'grace' }, selection('contacts'))
end)

T.case('a selection made by another client shows up', function()
  T.call(other, 'selection/select', { list = 'contacts', items = { 'tony' } })
  T.wait(function()
    return T.lines()[line_of('tony')]:match('^● ')
  end, 'the mark on tony')
end)

T.case('single selection: selecting another item moves the mark', function()
  vim.cmd('Listd open files')
  T.goto_item('Tests')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[line_of('Tests')]:match('^● ')
  end, 'the mark on Tests')
  T.goto_item('Sources')
  T.feed('<CR>')
  T.wait(function()
    return T.lines()[line_of('Sources')]:match('^● ') and T.lines()[line_of('Tests')]:match('^  ')
  end, 'the mark to move to Sources')
  T.eq({ 'Sources' }, selection('files'))
end)

T.case('<CR> on a header does nothing; in a list without selection it says why', function()
  vim.cmd('Listd open settings')
  local version = T.view().mirror.version
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  T.feed('<CR>')
  T.settle(200)
  local from = #T.messages + 1
  T.goto_item('wifi')
  T.feed('<CR>')
  T.wait(function()
    return #T.notified(from, vim.log.levels.WARN) > 0
  end, 'a warning')
  T.ok(T.notified(from, vim.log.levels.WARN)[1]:match('select'), T.notified(from, vim.log.levels.WARN)[1])
  T.eq(version, T.view().mirror.version, 'nothing changed')
  T.eq({}, selection('settings'))
end)

T.run()
