-- The window's view after changes: the top stays on its text as Vim keeps it, the cursor stays on its item.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()

-- An edit by the other client; waits until the list's buffer has it.
local function edit(list, edits)
  local result = T.call(other, 'list/edit', { list = list, edits = edits })
  T.wait_version(result.version, require('listd.buffer').find(list).buf)
end

-- Sections `a`…: `per` items each, ids `a1`, `a2`, ….
local function content(sections, per)
  local out = {}
  for s = 1, sections do
    local id = string.char(96 + s)
    local items = {}
    for i = 1, per do
      items[i] = { id = id .. i, text = id .. i }
    end
    out[s] = { id = id, header = id:upper(), items = items }
  end
  return { sections = out }
end

-- One empty window again (a list buffer is wiped when hidden).
local function reset()
  vim.cmd('only')
  vim.cmd('enew')
end

-- The window's top line, cursor line and bottom line.
local function view()
  return { top = vim.fn.line('w0'), cursor = vim.fn.line('.'), bottom = vim.fn.line('w$') }
end

T.case('the demo’s live list: a job that finishes moves down, the list stays shown whole', function()
  vim.cmd('Listd open live')
  local running = T.view().mirror:row_at(0).id
  T.goto_item(running)
  T.ok(#T.lines() < vim.api.nvim_win_get_height(0), 'the list fits the window')
  local from = vim.fn.line('.')
  T.wait(function()
    local line = T.view().rendered.line_of['i:' .. running]
    return line and line > from and not T.view().draw_pending
  end, running .. ' to finish and move down', 30000)
  T.eq(running, T.cursor_item(), 'the cursor stays on the job')
  T.eq({ top = 1, bottom = #T.lines() }, { top = view().top, bottom = view().bottom }, 'title to last line in view')
  reset()
end)

T.case('a 9-line list: moving the cursor item into another section keeps all 9 lines in view', function()
  T.call(other, 'list/create', { list = 'nine', content = content(2, 3) })
  vim.cmd('Listd open nine')
  T.eq(9, #T.lines())
  T.goto_item('a1')
  edit('nine', { { op = 'moveItem', item = 'a1', after = 'b3' } })
  T.eq('a1', T.cursor_item())
  T.eq({ top = 1, cursor = 9, bottom = 9 }, view())
  T.eq(0, vim.fn.winsaveview().topfill)
  -- Scrolled down by hand, a list that fits is shown whole again after a change.
  vim.cmd('normal! gg')
  vim.cmd('normal! ' .. vim.api.nvim_replace_termcodes('3<C-e>', true, false, true))
  T.eq(4, vim.fn.line('w0'), 'scrolled by hand')
  T.goto_item('b2')
  edit('nine', { { op = 'moveItem', item = 'b2', before = 'a1' } })
  T.eq({ 'b2', 1 }, { T.cursor_item(), vim.fn.line('w0') })
  reset()
end)

-- A long list in a window of 10 lines (above an empty one) with the top at `top_item`'s line and the
-- cursor on `cursor_item`.
local function long_view(list, top_item, cursor_item)
  T.call(other, 'list/create', { list = list, content = content(4, 10) })
  vim.cmd('split')
  vim.cmd('Listd open ' .. list)
  vim.cmd('resize 10')
  T.goto_item(top_item)
  vim.cmd('normal! zt')
  T.goto_item(cursor_item)
  T.eq(T.view().rendered.line_of['i:' .. top_item], vim.fn.line('w0'), top_item .. ' at the top')
end

T.case('the cursor item moves down inside the window: the window does not scroll', function()
  long_view('long1', 'b1', 'b2')
  local before = view()
  edit('long1', { { op = 'moveItem', item = 'b2', after = 'b7' } })
  T.eq('b2', T.cursor_item())
  T.eq({ top = before.top, cursor = before.cursor + 5, bottom = before.bottom }, view())
  reset()
end)

T.case('the cursor item moves down past the window: it scrolls just enough to show it at the bottom', function()
  long_view('long2', 'b1', 'b2')
  edit('long2', { { op = 'moveItem', item = 'b2', after = 'd5' } })
  T.eq('b2', T.cursor_item())
  local now = view()
  T.eq(now.cursor, now.bottom, 'b2 on the bottom line')
  T.eq(now.cursor - 9, now.top)
  reset()
end)

T.case('the cursor item moves up past the top: it scrolls just enough to show it at the top', function()
  long_view('long3', 'c1', 'c5')
  edit('long3', { { op = 'moveItem', item = 'c5', after = 'a2' } })
  T.eq('c5', T.cursor_item())
  local now = view()
  T.eq(now.cursor, now.top, 'c5 on the top line')
  reset()
end)

T.case("'scrolloff' is kept when the window must scroll", function()
  long_view('long4', 'b1', 'b2')
  vim.wo.scrolloff = 2
  edit('long4', { { op = 'moveItem', item = 'b2', after = 'd5' } })
  local now = view()
  T.eq(now.cursor + 2, now.bottom, 'two lines below the cursor')
  vim.wo.scrolloff = -1
  reset()
end)

-- Vim's own rule as the oracle: the same lines in a scratch buffer in a window of the same height
-- beside the list's, changed by nvim_buf_set_lines through another window on the scratch buffer
-- (Vim keeps the top line of the windows other than the one changing on its text), end with the
-- same top line and cursor line.
local function vim_would(lines, saved, changes)
  local list_win = vim.api.nvim_get_current_win()
  local below = vim.fn.win_getid(vim.fn.winnr('j'))
  T.ok(below ~= list_win, 'a window below the list')
  vim.cmd('vnew')
  local buf, win = vim.api.nvim_get_current_buf(), vim.api.nvim_get_current_win()
  T.eq(vim.api.nvim_win_get_height(list_win), vim.api.nvim_win_get_height(win), 'the same height')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.fn.winrestview({ topline = saved.topline, lnum = saved.lnum, col = 0 })
  T.eq(saved.topline, vim.fn.line('w0'), 'the scratch window starts at the same top')
  vim.api.nvim_win_set_buf(below, buf)
  vim.api.nvim_set_current_win(list_win)
  vim.api.nvim_win_call(below, function()
    for _, change in ipairs(changes) do
      change(buf)
    end
  end)
  local result = vim.api.nvim_win_call(win, function()
    return { top = vim.fn.line('w0'), cursor = vim.fn.line('.') }
  end)
  vim.api.nvim_win_set_buf(below, vim.api.nvim_create_buf(false, true))
  vim.api.nvim_win_close(win, true)
  vim.cmd('bwipeout! ' .. buf)
  T.eq(saved.topline, vim.fn.line('w0'), 'the list window did not move')
  return result
end

T.case('inserts and deletes above the top and between top and cursor scroll as Vim scrolls', function()
  long_view('long6', 'c1', 'c4')
  local saved, lines = vim.fn.winsaveview(), T.lines()
  local line_of = T.view().rendered.line_of
  local expected = vim_would(lines, saved, {
    function(buf) -- three items after a2: above the top
      vim.api.nvim_buf_set_lines(buf, line_of['i:a2'], line_of['i:a2'], false, { 'x', 'y', 'z' })
    end,
    function(buf) -- b4, b5 deleted: above the top
      local at = line_of['i:b4'] + 3
      vim.api.nvim_buf_set_lines(buf, at - 1, at + 1, false, {})
    end,
    function(buf) -- one item after c2: between the top and the cursor
      local at = line_of['i:c2'] + 1
      vim.api.nvim_buf_set_lines(buf, at, at, false, { 'w' })
    end,
  })
  edit('long6', {
    { op = 'insertItems', after = 'a2', items = { { id = 'x', text = 'x' }, { id = 'y', text = 'y' }, { id = 'z', text = 'z' } } },
    { op = 'deleteItems', items = { 'b4', 'b5' } },
    { op = 'insertItems', after = 'c2', items = { { id = 'w', text = 'w' } } },
  })
  T.eq('c4', T.cursor_item())
  T.eq(expected, { top = vim.fn.line('w0'), cursor = vim.fn.line('.') }, 'as Vim would')
  T.eq(T.view().rendered.line_of['i:c1'], vim.fn.line('w0'), 'c1 still at the top')
  reset()
end)

T.case('the top line’s item moves away: the line above takes the top, as when Vim deletes the top line', function()
  long_view('long5', 'b3', 'b5')
  local saved, lines = vim.fn.winsaveview(), T.lines()
  local line_of = T.view().rendered.line_of
  local expected = vim_would(lines, saved, {
    function(buf) -- b3 after d9
      vim.api.nvim_buf_set_lines(buf, line_of['i:d9'], line_of['i:d9'], false, { lines[line_of['i:b3']] })
    end,
    function(buf) -- b3 deleted where it was: the top line
      vim.api.nvim_buf_set_lines(buf, line_of['i:b3'] - 1, line_of['i:b3'], false, {})
    end,
  })
  edit('long5', { { op = 'moveItem', item = 'b3', after = 'd9' } })
  T.eq('b5', T.cursor_item())
  T.eq(expected, { top = vim.fn.line('w0'), cursor = vim.fn.line('.') }, 'as Vim would')
  T.eq(T.view().rendered.line_of['i:b2'], vim.fn.line('w0'), 'b2 at the top')
  reset()
end)

T.case('a window that is not the current one keeps its view too', function()
  long_view('long7', 'b1', 'b2')
  local list_win = vim.api.nvim_get_current_win()
  vim.cmd('wincmd j')
  edit('long7', {
    { op = 'moveItem', item = 'b2', after = 'b6' },
    { op = 'insertItems', before = 'a1', items = { { id = 'x', text = 'x' } } },
  })
  local saved = vim.api.nvim_win_call(list_win, vim.fn.winsaveview)
  local line_of = T.view(vim.api.nvim_win_get_buf(list_win)).rendered.line_of
  T.eq({ lnum = line_of['i:b2'], topline = line_of['i:b1'] }, { lnum = saved.lnum, topline = saved.topline })
  reset()
end)

T.case('property: the unmoved lines are a longest run of lines in the same order (seeded)', function()
  local viewport = require('listd.viewport')
  local seed = tonumber(os.getenv('LISTD_SEED') or '') or 24311
  math.randomseed((seed * 1103515245 + 12345) % 2147483648)
  for case = 1, 300 do
    -- Old lines 1…n keyed k1…kn; the new rendering keeps some, in a shuffled order, among new keys.
    local n = math.random(0, 30)
    local keys, new_keys = {}, {}
    for l = 1, n do
      keys[l] = 'k' .. l
      if math.random() < 0.8 then
        new_keys[#new_keys + 1] = keys[l]
      end
      if math.random() < 0.2 then
        new_keys[#new_keys + 1] = 'new' .. l
      end
    end
    for _ = 1, math.random(0, 3) do
      local a, b = math.random(math.max(1, #new_keys)), math.random(math.max(1, #new_keys))
      new_keys[a], new_keys[b] = new_keys[b], new_keys[a]
    end
    local line_of = {}
    for l, key in ipairs(new_keys) do
      line_of[key] = l
    end
    local set = viewport.unmoved(keys, n, line_of)
    -- Increasing, and as long as the longest increasing run (quadratic reference).
    local size, last = 0, 0
    for l = 1, n do
      if set[l] then
        local at = T.ok(line_of[keys[l]], 'seed ' .. seed .. ' case ' .. case .. ': a deleted line counted as unmoved')
        T.ok(at > last, 'seed ' .. seed .. ' case ' .. case .. ': not increasing')
        size, last = size + 1, at
      end
    end
    local best, longest = {}, 0
    for l = 1, n do
      local at = line_of[keys[l]]
      if at then
        best[l] = 1
        for m = 1, l - 1 do
          if best[m] and line_of[keys[m]] < at then
            best[l] = math.max(best[l], best[m] + 1)
          end
        end
        longest = math.max(longest, best[l])
      end
    end
    T.eq(longest, size, 'seed ' .. seed .. ' (LISTD_SEED=' .. seed .. ' replays it) case ' .. case .. ': the run is longest')
  end
end)

T.run()
