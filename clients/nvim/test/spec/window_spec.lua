-- Large lists: the buffer holds a line per row but only the rows around its windows; scrolling fetches rows,
-- changes inside and outside the window, the view stays on its rows, and exactness against query/window.
-- LISTD_SEED=N replays the property case; LISTD_STEPS=N changes its length (default 150).
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()
local buffer = require('listd.buffer')
local render = require('listd.render')
local R = dofile(T.root .. '/test/random_edits.lua')

local other = T.second_client()
local ROWS = 20000

local function call(method, params)
  return T.call(other, method, params)
end

-- Rows b1…bN in one section.
local function rows(n, from)
  local items = {}
  for i = 1, n do
    items[i] = { id = 'b' .. (from or 0) + i, text = 'Row ' .. (from or 0) + i }
  end
  return items
end

-- Waits until the buffer is at `version` (default: its current one) and shows all it should.
local function settle(version)
  local view = T.view()
  local ok = vim.wait(8000, function()
    return (not version or (view.mirror and view.mirror.version >= version)) and buffer.settled(view)
  end, 10)
  T.ok(ok, 'the buffer did not settle: ' .. tostring(buffer.unsettled(view)))
end

local function edit(list, edits)
  local result = call('list/edit', { list = list, edits = edits })
  settle(result.version)
  return result
end

local function cached_count()
  local n = 0
  for _ in pairs(T.view().mirror.rows) do
    n = n + 1
  end
  return n
end

-- The text of buffer line `lnum`.
local function line(lnum)
  return vim.api.nvim_buf_get_lines(0, lnum - 1, lnum, false)[1]
end

T.case('a 20,000-row list opens with a line per row and only the rows near the window', function()
  call('list/create', { list = 'big', content = { sections = { { id = 'all', header = 'All', items = rows(ROWS) } } } })
  vim.cmd('Listd open big')
  vim.cmd('resize 20')
  settle()
  T.eq(ROWS + 2, vim.api.nvim_buf_line_count(0), 'title, header and a line per row')
  T.eq('    Row 1', line(3))
  T.ok(cached_count() < 300, 'rows cached: ' .. cached_count())
  T.eq('', line(5000), 'a row far away is an empty line')
  local w = T.view().mirror.window
  T.ok(w and w.offset == 0 and w.limit < 1000, 'a windowed subscription over the rows near the window: ' .. vim.inspect(w))
end)

T.case('G, gg, a search for a drawn row and a jump to the middle fetch and draw the rows there', function()
  vim.cmd('normal! G')
  settle()
  T.eq('    Row ' .. ROWS, line(ROWS + 2), 'the last row')
  T.eq('b' .. ROWS, T.cursor_item())
  T.eq('', line(3), 'the first rows are dropped again')
  T.ok(cached_count() < 300, 'rows cached: ' .. cached_count())
  vim.cmd('normal! gg')
  settle()
  T.eq('    Row 1', line(3))
  vim.cmd('normal! 10002Gzz')
  settle()
  T.eq('    Row 10000', line(10002))
  T.eq('b10000', T.cursor_item())
  vim.fn.search('Row 10010$')
  T.eq(10012, vim.fn.line('.'), 'search finds a drawn row')
  T.eq('', line(ROWS + 2), 'the last row is dropped')
end)

T.case('a change inside the window rewrites its line; one outside changes no drawn line', function()
  local before = T.lines()
  edit('big', { { op = 'updateItems', items = { { id = 'b10005', text = 'Changed 10005' } } } })
  T.eq('    Changed 10005', line(10007))
  local after = T.lines()
  after[1], before[1] = nil, nil -- the title's version
  after[10007], before[10007] = nil, nil
  T.eq(before, after, 'no other line changed')
  -- Record what the daemon sends: a change far from the window comes without its row.
  local subscriber = require('listd.session').subscribers.big
  local on_change, received = subscriber.on_change, {}
  subscriber.on_change = function(params)
    received[#received + 1] = params
    on_change(params)
  end
  edit('big', { { op = 'updateItems', items = { { id = 'b3', text = 'Changed 3' } } } })
  subscriber.on_change = on_change
  T.eq({ { at = { 0, 2 }, count = 1 } }, received[1].changeset.itemReconfigures or received[1].changeset.itemReloads, 'a count, no row')
  T.eq('', line(5), 'the far row stays an empty line')
  T.eq(nil, T.view().mirror:flat_of('b3'), 'and is not kept')
  vim.cmd('normal! gg')
  settle()
  T.eq('    Changed 3', line(5), 'fetched when the window comes near')
  vim.cmd('normal! 10012Gzz')
  settle()
end)

T.case('inserts and deletes above the window: the view stays on its rows (it does not scroll away)', function()
  local top_item = T.view().rendered.keys[vim.fn.line('w0')]
  local cursor_item, screen_row = T.cursor_item(), vim.fn.line('.') - vim.fn.line('w0')
  edit('big', { { op = 'insertItems', before = 'b2', items = rows(500, ROWS) } })
  T.eq(cursor_item, T.cursor_item(), 'the cursor stays on its item')
  T.eq(top_item, T.view().rendered.keys[vim.fn.line('w0')], 'the top line stays on its row')
  T.eq(screen_row, vim.fn.line('.') - vim.fn.line('w0'), 'the cursor stays on its screen row')
  T.eq('    Row 10010', line(vim.fn.line('.')))
  edit('big', { { op = 'deleteItems', items = { 'b100', 'b101', 'b102', 'b9000' } } })
  T.eq(cursor_item, T.cursor_item())
  T.eq(top_item, T.view().rendered.keys[vim.fn.line('w0')])
  -- Below the window: nothing moves.
  local top = vim.fn.line('w0')
  edit('big', { { op = 'insertItems', after = 'b15000', items = rows(10, ROWS + 1000) } })
  T.eq({ top, cursor_item }, { vim.fn.line('w0'), T.cursor_item() })
  -- The cursor's row moves far away: the cursor follows it, its rows fetched.
  edit('big', { { op = 'moveItem', item = cursor_item, after = 'b19000' } })
  T.eq(cursor_item, T.cursor_item(), 'the cursor follows its row')
  T.eq('    Row 10010', line(vim.fn.line('.')))
end)

T.case('a change composed over several versions (a subscriber that fell behind) is applied', function()
  local window = require('listd.window')
  local model = window.new('c', 3, { sections = { { id = 's', rows = 2 } } }, { items = {} })
  model:install({ offset = 0, totalRows = 2, rows = { { id = 'a' }, { id = 'b' } } }, function()
    return true
  end)
  local ok, why = window.try(model.apply_did_change, model, {
    list = 'c', previousVersion = 3, version = 7,
    changeset = { itemInserts = { { at = { 0, 1 }, rows = { { id = 'x' } } } }, selected = { 'x' } },
  })
  T.ok(ok, tostring(why))
  T.eq({ 7, 3, 'x', true }, { model.version, model:row_count(), model:row_at(1).id, model.selection.x })
  T.eq(false, (window.try(model.apply_did_change, model, { list = 'c', previousVersion = 7, version = 7, changeset = {} })),
    'a change to its own version is refused')
end)

-- The buffer against the daemon at its version: counts, headers and footers, selection, every cached row
-- equal to query/window's, drawn rows' lines rendered from them, other row lines empty.
local function check(step, seed)
  settle()
  local view = T.view()
  local model = view.mirror
  local where = ' at step ' .. step .. ' (LISTD_SEED=' .. seed .. ' replays it)'
  local sections = call('query/sections', { list = 'prop', atVersion = model.version }).sections
  local expected_sections = {}
  for i, s in ipairs(sections) do
    expected_sections[i] = { id = s.id, header = type(s.header) == 'string' and s.header or nil, footer = type(s.footer) == 'string' and s.footer or nil, count = s.rows }
  end
  T.eq(expected_sections, model.layout.sections, 'sections' .. where)
  local selection = {}
  for _, item in ipairs(call('query/selection', { list = 'prop', atVersion = model.version }).items) do
    selection[item.id] = true
  end
  T.eq(selection, model.selection, 'selection' .. where)
  local lo, hi
  for flat in pairs(model.rows) do
    lo, hi = math.min(lo or flat, flat), math.max(hi or flat, flat)
  end
  local answer = lo and call('query/window', { list = 'prop', offset = lo, limit = hi - lo + 1, atVersion = model.version })
  local lines = T.lines()
  T.eq(model.layout.line_count, #lines, 'line count' .. where)
  for flat = 0, model.layout.total_rows - 1 do
    local have, lnum = model.rows[flat], model.layout:line_of_row(flat)
    if have then
      local want = vim.deepcopy(answer.rows[flat - lo + 1])
      want.section, want.indexPath = nil, nil
      T.eq(want, have, 'row ' .. flat .. where)
      T.eq((render.row_line(want, selection[want.id] == true)), lines[lnum], 'line of row ' .. flat .. where)
    else
      T.eq('', lines[lnum], 'line of row ' .. flat .. ' (not cached)' .. where)
    end
  end
  for i, s in ipairs(model.layout.sections) do
    T.eq((render.header_line(s)), lines[model.layout.first_line[i]], 'header of ' .. s.id .. where)
  end
end

T.case('property: after random edits and scrolling, the buffer equals query/window at its version (seeded)', function()
  local seed = tonumber(os.getenv('LISTD_SEED') or '') or 24311
  local steps = tonumber(os.getenv('LISTD_STEPS') or '') or 150
  T.out('seed ' .. seed .. ' (LISTD_SEED=' .. seed .. ' replays it), ' .. steps .. ' steps')
  math.randomseed((seed * 1103515245 + 12345) % 2147483648)
  local base = { id = 'base', header = 'Base', items = rows(1500) }
  call('list/create', { list = 'prop', selectionMode = 'multiple', content = { sections = { R.new_section(), base, R.new_section() } } })
  vim.cmd('only')
  vim.cmd('Listd open prop')
  vim.cmd('resize 12')
  local from = #T.messages + 1
  local applied = 0
  for step = 1, steps do
    local sections, items = R.ids(call, 'prop')
    local edits = {}
    for _ = 1, math.random(3) do
      edits[#edits + 1] = R.random_edit(sections, items)
    end
    local _, err = other:request_sync('list/edit', { list = 'prop', edits = edits }, 8000)
    if err then
      T.ok(err.code ~= -32603, 'internal error at step ' .. step .. ': ' .. vim.inspect(err))
    else
      applied = applied + 1
    end
    if step % 5 == 0 then
      -- Scroll somewhere, as a user would while the list changes: often to the small sections around the
      -- base one, where outline items move with their children.
      local count = vim.api.nvim_buf_line_count(0)
      local lnum = math.random() < 0.5 and math.random(count) or (math.random() < 0.5 and math.random(math.min(count, 60)) or math.max(1, count - math.random(0, 80)))
      vim.api.nvim_win_set_cursor(0, { lnum, 0 })
      vim.cmd('normal! zz')
    end
    if step % 5 == 0 then
      check(step, seed)
    end
  end
  check(steps, seed)
  T.ok(applied > steps / 2, 'most edits applied')
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'no resynchronisation or warning')
end)

T.run()
