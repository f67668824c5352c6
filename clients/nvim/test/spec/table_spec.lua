-- Tables, empty states and live views: rows as aligned cells under a virtual header, empty states centred,
-- :Listd sort and :Listd filter making a live view (view/create) and changing it (view/update).
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()
local buffer = require('listd.buffer')

local other = T.second_client()

-- The virtual lines of the current buffer: {line0 = {text…}}.
local function virtual()
  local out = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(0, buffer.decor_namespace, 0, -1, { details = true })) do
    local texts = {}
    for _, vline in ipairs(mark[4].virt_lines or {}) do
      texts[#texts + 1] = vim.trim(vline[1][1])
    end
    out[mark[2]] = texts
  end
  return out
end

-- The item ids on the row lines, in buffer order.
local function items()
  local ids = {}
  for lnum = 1, vim.api.nvim_buf_line_count(0) do
    local key = T.view().rendered.keys[lnum]
    if key and key:sub(1, 2) == 'i:' then
      ids[#ids + 1] = key:sub(3)
    end
  end
  return ids
end

local function settled()
  T.wait(function()
    local view = T.view()
    return view and buffer.settled(view)
  end, 'the buffer to settle')
end

T.case('a table shows each row as its cells, aligned and cut with …, under a virtual line of titles', function()
  vim.cmd('Listd open processes')
  settled()
  T.eq({
    "processes 'Processes' v0 · plain · selection multiple",
    '§ Running',
    '    listd --listen --…   4121    2.5        18.2 daemon   2026-11-23 04:00  ✓',
    '    swift-build --bui…   5310  187.4      1433.6 tool     2026-11-23 04:12  ✓',
    '    nvim README.md       6002    0.3        42.5 app      2026-11-23 03:58  ✓',
    '    defunct              6110      0             app                        ✗',
  }, T.lines(), 'the lines')
  T.eq({ [0] = { 'Command               PID  CPU % Memory (MB) Kind     Started          OK' } }, virtual(), 'the header')
  T.eq({ 'p1', 'p2', 'p3', 'p4' }, items(), 'a line per row')
  T.eq('p1', T.cursor_item(), 'the cursor starts on the first row')
end)

T.case('new columns (setColumns) and changed cells redraw the rows', function()
  T.call(other, 'list/create', {
    list = 'sizes',
    columns = { { id = 'name', title = 'Name', width = 5 } },
    content = { sections = { { id = 's', items = { { id = 'a', text = 'A', cells = { name = 'alpha' } } } } } },
  })
  vim.cmd('Listd open sizes')
  settled()
  T.eq('    alpha', T.lines()[3])
  local result = T.call(other, 'list/edit', { list = 'sizes', edits = {
    { op = 'setColumns', columns = { { id = 'name', title = 'Name', width = 3 }, { id = 'size', title = 'Size', alignment = 'trailing', width = 4 } } },
    { op = 'patchItems', items = { { id = 'a', cells = { size = 12 } } } },
  } })
  T.wait_version(result.version)
  settled()
  T.eq('    al…   12', T.lines()[3], 'cut to 3, the size right-aligned')
  T.eq({ [0] = { 'Na… Size' } }, virtual(), 'the new header')
end)

T.case('a list without rows shows its empty state centred; a row replaces it', function()
  vim.cmd('Listd open inbox')
  settled()
  T.eq({ "inbox 'Inbox' v0 · insetGrouped · selection single", '§ Messages' }, T.lines(), 'title and header only')
  T.eq({ [1] = { '', 'No Mail', 'New messages appear here.' } }, virtual(), 'the empty state below the last line')
  local mark = vim.api.nvim_buf_get_extmarks(0, buffer.decor_namespace, 0, -1, { details = true })[1]
  local title = mark[4].virt_lines[2][1][1]
  local pad = #title:match('^ *')
  T.ok(math.abs(pad - (vim.api.nvim_win_get_width(0) - #'No Mail') / 2) <= 1, 'centred: ' .. vim.inspect(title))
  vim.cmd('vsplit')
  for _, width in ipairs({ 40, 30 }) do -- the second resize changes no row a window needs: only the width
    vim.cmd('vertical resize ' .. width)
    T.wait(function()
      local marks = vim.api.nvim_buf_get_extmarks(0, buffer.decor_namespace, 0, -1, { details = true })
      return marks[1] and marks[1][4].virt_lines[2][1][1] == string.rep(' ', math.floor((width - 7) / 2)) .. 'No Mail'
    end, 'the empty state centred in ' .. width .. ' columns')
  end
  vim.cmd('only')
  local from = #T.messages + 1
  vim.cmd('Listd filter')
  T.eq('listd://inbox', vim.api.nvim_buf_get_name(0), 'no view for removing no filter')
  T.eq({ 'listd: inbox has no filter' }, vim.tbl_map(function(m)
    return m.message
  end, vim.list_slice(T.messages, from)), 'said so')
  local result = T.call(other, 'list/edit', { list = 'inbox', edits = { { op = 'appendItems', section = 'messages', items = { { id = 'm1', text = 'Hello' } } } } })
  T.wait_version(result.version)
  settled()
  T.eq({}, virtual(), 'no empty state with a row')
  T.eq('    Hello', T.lines()[3])
end)

T.case(':Listd sort makes a live view of the list and shows it; again, it updates the view', function()
  vim.cmd('Listd open processes')
  settled()
  vim.cmd('Listd sort cpu desc')
  T.eq('listd://processes·nvim-1', vim.api.nvim_buf_get_name(0), 'the view in the window')
  settled()
  T.eq({ 'p2', 'p1', 'p3', 'p4' }, items(), 'by CPU, descending')
  T.eq({ [0] = { 'Command               PID CPU % ▼ Memory (MB) Kind     Started          OK' } }, virtual(), 'a view of a table is a table, ▼ on its sort column')
  local info = T.call(other, 'view/info', { view = 'processes·nvim-1' })
  T.eq({ { field = 'cells.cpu', descending = true } }, info.sort, 'the view sorts by the cpu cells')
  vim.cmd('Listd sort memory')
  settled()
  T.eq('listd://processes·nvim-1', vim.api.nvim_buf_get_name(0), 'the same view')
  T.eq({ 'p4', 'p1', 'p3', 'p2' }, items(), 'by memory (a number of MB), null first')
  T.eq({ { field = 'cells.memory', descending = false } }, T.call(other, 'view/info', { view = 'processes·nvim-1' }).sort, 'view/update')
end)

T.case(':Listd filter filters the view; no match shows the search empty state; no text removes the filter', function()
  local from = #T.messages + 1
  vim.cmd('Listd filter README')
  settled()
  T.eq({ 'p3' }, items(), 'the row whose cells contain README')
  T.eq('README', T.call(other, 'view/info', { view = 'processes·nvim-1' }).filter.query, 'the view filters')
  vim.cmd('Listd filter zzz')
  settled()
  T.eq({}, items(), 'no rows')
  local shown = virtual()
  T.eq({ '', 'No Results for “zzz”', 'Check the spelling or try a new search.' }, shown[vim.api.nvim_buf_line_count(0) - 1], 'the search empty state')
  vim.cmd('Listd filter')
  settled()
  T.eq({ 'p4', 'p1', 'p3', 'p2' }, items(), 'every row again, still sorted')
  T.eq(vim.NIL, T.call(other, 'view/info', { view = 'processes·nvim-1' }).filter, 'no filter')
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'the empty state changes apply without resynchronising')
end)

T.case('the view follows its source', function()
  local result = T.call(other, 'list/edit', { list = 'processes', edits = { { op = 'patchItems', items = { { id = 'p4', cells = { memory = 'zz' } } } } } })
  T.wait(function()
    return vim.deep_equal({ 'p1', 'p3', 'p2', 'p4' }, items())
  end, 'p4 to sort last, got ' .. vim.inspect(items()))
  T.ok(result.version >= 1)
end)

T.case('a sort by a column the table does not have is refused naming it', function()
  local from = #T.messages + 1
  T.ok(not pcall(vim.cmd, 'Listd sort nope'), 'an error')
  T.eq('listd://processes·nvim-1', vim.api.nvim_buf_get_name(0), 'still the view')
  local errors = T.notified(from, vim.log.levels.ERROR)
  T.ok(#errors == 1 and errors[1]:match("no column 'nope'") and errors[1]:match('cpu'), vim.inspect(errors))
end)

T.case("a view shows its source's title, sort and filter; columns match by id or title in any case", function()
  vim.cmd('Listd sort PID desc') -- the header's title, in its case; the column's id is pid
  settled()
  T.eq('listd://processes·nvim-1', vim.api.nvim_buf_get_name(0), 'the same view')
  T.eq({ { field = 'cells.pid', descending = true } }, T.call(other, 'view/info', { view = 'processes·nvim-1' }).sort, 'by the pid column')
  T.eq({ 'p4', 'p3', 'p2', 'p1' }, items(), 'by PID, descending')
  local function title()
    return (T.lines()[1]:gsub(' v%d+ ', ' vN '))
  end
  T.eq("processes 'Processes' vN · sorted by PID ▼ · plain · selection multiple", title(), 'the title line')
  T.eq('§ all rows of processes, sorted by PID ▼', T.lines()[2], 'the header says what the view holds')
  T.eq({ [0] = { 'Command             PID ▼  CPU % Memory (MB) Kind     Started          OK' } }, virtual(), 'the arrow on the column')
  vim.cmd('Listd sort Command')
  settled()
  T.eq({ { field = 'cells.command', descending = false } }, T.call(other, 'view/info', { view = 'processes·nvim-1' }).sort, 'a title in another case')
  vim.cmd('Listd sort TEXT desc')
  settled()
  T.eq({ { field = 'text', descending = true } }, T.call(other, 'view/info', { view = 'processes·nvim-1' }).sort, 'a field in another case')
  T.eq("processes 'Processes' vN · sorted by text ▼ · plain · selection multiple", title())
  vim.cmd('Listd filter nvim')
  settled()
  T.eq({ 'p3' }, items())
  T.eq("processes 'Processes' vN · sorted by text ▼ · filter 'nvim' · plain · selection multiple", title())
  T.eq("§ rows of processes, sorted by text ▼, filter 'nvim'", T.lines()[2])
  vim.cmd('Listd filter')
  settled()
  T.eq('§ all rows of processes, sorted by text ▼', T.lines()[2])
end)

T.case('<CR> on a section header goes to its first row; <CR> and K elsewhere say what the line is', function()
  vim.cmd('Listd open processes')
  settled()
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  T.feed('<CR>')
  T.eq(3, vim.fn.line('.'), 'on the first row of the section')
  T.eq('p1', T.cursor_item())
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  local from = #T.messages + 1
  T.feed('K')
  T.eq({ "listd: section running: 4 rows · header 'Running'" }, T.notified(from), 'K on a header')
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  from = #T.messages + 1
  T.feed('<CR>')
  T.eq({ 'listd: the title line: <CR> selects on an item line' }, T.notified(from), '<CR> on the title')
  from = #T.messages + 1
  T.feed('K')
  local said = T.notified(from)
  T.ok(#said == 1 and said[1]:match('^listd: processes v%d+: 4 rows in 1 section'), vim.inspect(said))
  T.eq({}, T.lua_errors(), 'no Lua errors')
end)

T.case('closing the view buffer disposes the view; the next sort makes a new one', function()
  vim.cmd('Listd open contacts')
  T.wait(function()
    local _, err = other:request_sync('list/info', { list = 'processes·nvim-1' }, 8000)
    return err ~= nil
  end, 'the view to be disposed')
  vim.cmd('Listd sort text desc')
  T.eq('listd://contacts·nvim-2', vim.api.nvim_buf_get_name(0), 'a new view')
  settled()
  T.eq('whitfield', items()[1], 'contacts by name, descending: ' .. vim.inspect(items()))
end)

T.case('a view id another client holds is skipped', function()
  T.call(other, 'view/create', { view = 'files·nvim-3', source = 'files' })
  vim.cmd('Listd open files')
  vim.cmd('Listd sort text')
  T.eq('listd://files·nvim-4', vim.api.nvim_buf_get_name(0), 'the next free id')
end)

T.case('a view disposed with its source is made again, with its sort, when the source is back', function()
  local function create()
    T.call(other, 'list/create', { list = 'tmp', content = { sections = { { id = 's', items = {
      { id = 'a', text = 'apple' }, { id = 'b', text = 'banana' }, { id = 'c', text = 'cherry' } } } } } })
  end
  create()
  vim.cmd('Listd open tmp')
  vim.cmd('Listd sort text desc')
  T.eq('listd://tmp·nvim-5', vim.api.nvim_buf_get_name(0))
  T.call(other, 'list/dispose', { list = 'tmp' })
  T.wait(function()
    return T.view().status == 'disposed'
  end, 'the view to be disposed')
  create()
  vim.cmd('Listd filter an')
  T.eq('listd://tmp·nvim-6', vim.api.nvim_buf_get_name(0), 'a new view')
  settled()
  T.eq({ 'b' }, items(), 'filtered')
  local info = T.call(other, 'view/info', { view = 'tmp·nvim-6' })
  T.eq({ 'an', 'text', true }, { info.filter.query, info.sort[1].field, info.sort[1].descending }, 'filter and the sort kept')
end)

T.case('q on a sorted or filtered view goes back to the source list, not to an empty buffer', function()
  vim.cmd('Listd open processes')
  settled()
  vim.cmd('Listd sort PID')
  local view_buf = vim.api.nvim_get_current_buf()
  T.ok(vim.api.nvim_buf_get_name(0):match('^listd://processes·nvim%-'), vim.api.nvim_buf_get_name(0))
  T.feed('q')
  T.ok(not vim.api.nvim_buf_is_valid(view_buf), 'the view buffer wiped')
  T.eq('listd://processes', vim.api.nvim_buf_get_name(0), 'the source list shown again')
  settled()
  T.eq({ 'p1', 'p2', 'p3', 'p4' }, items(), 'its rows')
  vim.cmd('Listd filter nvim')
  vim.cmd('Listd close')
  T.eq('listd://processes', vim.api.nvim_buf_get_name(0), ':Listd close on a view does the same')
end)

T.case('every sorted column title has a space before its arrow, a narrow column widened for it', function()
  vim.cmd('Listd open processes')
  settled()
  -- The display column where `s` starts in `line`.
  local function at(line, s)
    return vim.fn.strdisplaywidth(line:sub(1, line:find(s, 1, true) - 1))
  end
  local function header()
    return vim.api.nvim_buf_get_extmarks(0, buffer.decor_namespace, 0, 0, { details = true })[1][4].virt_lines[1][1][1]
  end
  local function p4()
    T.goto_item('p4')
    return vim.api.nvim_get_current_line()
  end
  vim.cmd('Listd sort OK')
  settled()
  T.ok(vim.endswith(header(), 'Started          OK ▲'), header())
  T.eq(at(header(), 'OK ▲') + 1, at(p4(), '✗'), 'the cell centred in its column, under its title')
  vim.cmd('Listd sort cpu')
  settled()
  T.ok(header():find('PID CPU % ▲ Memory (MB) Kind', 1, true), header())
  T.eq(at(header(), '▲'), at(p4(), ' 0 ') + 1, 'the cells right-aligned under the arrow')
  T.eq(at(header(), 'Kind'), at(p4(), 'app'), 'the columns after it move with it')
  vim.cmd('Listd close')
end)

T.case('a column title with a space sorts, bare, quoted or escaped, with or without an order; it completes', function()
  vim.cmd('Listd open processes')
  settled()
  local function sort_of(command)
    vim.cmd(command)
    local id = vim.api.nvim_buf_get_name(0):match('^listd://(.*)$')
    local key = T.call(other, 'view/info', { view = id }).sort[1]
    return { key.field, key.descending }
  end
  local from = #T.messages + 1
  T.eq({ 'cells.cpu', false }, sort_of('Listd sort CPU %'), 'the title, bare')
  T.eq({ 'cells.cpu', true }, sort_of('Listd sort cpu % desc'), 'in another case, descending')
  T.eq({ 'cells.cpu', false }, sort_of('Listd sort "CPU %"'), 'double quotes')
  T.eq({ 'cells.cpu', true }, sort_of("Listd sort 'CPU %' desc"), 'single quotes, descending')
  T.eq({ 'cells.cpu', false }, sort_of('Listd sort CPU\\ % ASC'), 'an escaped space')
  T.eq({ 'cells.memory', true }, sort_of('Listd sort Memory (MB) desc'), 'another title with spaces')
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'no errors')
  local offered = require('listd.commands').complete('', 'Listd sort ')
  T.ok(vim.tbl_contains(offered, 'CPU %') and vim.tbl_contains(offered, 'cpu'), vim.inspect(offered))
  vim.cmd('Listd close')
end)

T.case('a sort by a field a plain list does not have is refused in one line, with a suggestion', function()
  vim.cmd('Listd open contacts')
  settled()
  local name = vim.api.nvim_buf_get_name(0)
  local from = #T.messages + 1
  T.ok(not pcall(vim.cmd, 'Listd sort nonsense'), 'an error')
  T.ok(not pcall(vim.cmd, 'Listd sort txet desc'), 'an error')
  T.eq({
    "listd: unknown field 'nonsense': text, secondaryText, image, id or data.PATH",
    "listd: unknown field 'txet' (did you mean 'text'?): text, secondaryText, image, id or data.PATH",
  }, T.notified(from, vim.log.levels.WARN), 'one line each, before asking the daemon')
  T.eq(name, vim.api.nvim_buf_get_name(0), 'no view made')
  vim.cmd('Listd sort data.email desc')
  T.ok(vim.api.nvim_buf_get_name(0):match('^listd://contacts·nvim%-'), 'a data path sorts')
end)

T.case("a view's title shows its source's version, not its own", function()
  T.call(other, 'list/create', { list = 'versions', columns = { { id = 'n', title = 'N' } }, content = { sections = { { id = 's', items = {
    { id = 'a', text = 'a', cells = { n = 1 } }, { id = 'b', text = 'b', cells = { n = 2 } } } } } } })
  vim.cmd('Listd open versions')
  settled()
  vim.cmd('Listd sort n desc')
  vim.cmd('Listd sort n')
  vim.cmd('Listd sort n desc')
  settled()
  local id = vim.api.nvim_buf_get_name(0):match('^listd://(.*)$')
  T.ok(T.call(other, 'view/info', { view = id }).version >= 2, 'the view has versions of its own')
  T.eq("versions 'versions' v0 · sorted by N ▼ · plain · selection single", T.lines()[1], 'the list is at v0')
  T.call(other, 'list/edit', { list = 'versions', edits = { { op = 'appendItems', section = 's', items = { { id = 'c', text = 'c', cells = { n = 3 } } } } } })
  T.wait(function()
    return T.lines()[1] == "versions 'versions' v1 · sorted by N ▼ · plain · selection single"
  end, 'the title to follow the list to v1, got ' .. vim.inspect(T.lines()[1]))
end)

T.run()