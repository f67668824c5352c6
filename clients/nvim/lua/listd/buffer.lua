-- List buffers (`listd://LIST`): one line per row, only the rows around the windows drawn; each didChange
-- edited in as line inserts and deletes, the cursor kept on its item and the top line on its text.
--
-- The buffer has every line of the list — title, section headers and footers, one line per visible row —
-- so scrolling, counts, `gg`/`G`, marks and the keymaps work as in any buffer, but only the rows near a
-- window (its height twice over, at least 50, each side) hold their text; the others are empty lines
-- until a window comes near them, then fetched with query/window. See `:help listd-window`.
local config = require('listd.config')
local messages = require('listd.messages')
local render = require('listd.render')
local session = require('listd.session')
local viewport = require('listd.viewport')
local window = require('listd.window')

local api = vim.api
local uv = vim.uv or vim.loop
local M = {
  ---Views by buffer number: {buf, list, mirror (listd.window model), info, status, drawn, queue, stats}.
  views = {},
  ---The live views this Neovim made (listd.views), by view id: {source, title?, sort?, filter?}. Their buffers
  ---show the source's id and title, the sort and the filter, not the view's own id.
  derived = {},
}

local ns = api.nvim_create_namespace('listd')
-- Virtual lines: a table's column titles under the title line, an empty list's empty state.
local decor_ns = api.nvim_create_namespace('listd_decor')
M.decor_namespace = decor_ns

-- The error of list/subscribe for a list that does not exist.
local UNKNOWN_LIST = -32010
M.namespace = ns

-- Rows fetched beyond each edge of a window: its height twice, at least this many.
M.min_margin = 50
-- The largest window asked for (the daemon's limits.maxWindow by default).
M.max_window = 10000
-- Placeholder lines inserted at once above this count are read from a file (much faster than set_lines).
local READ_ABOVE = 5000

---The view of a list, if a buffer shows it.
---@param list string
---@return table|nil
function M.find(list)
  for _, view in pairs(M.views) do
    if view.list == list then
      return view
    end
  end
  return nil
end

---The list id of a `listd://LIST` buffer name.
---@param name string
---@return string|nil
function M.list_of(name)
  local list = name:match('^listd://(.+)$')
  return list
end

-- The signature of a line: its text and highlights (what decides whether it must be rewritten).
local function signature(text, spans)
  local parts = { text }
  for _, h in ipairs(spans) do
    parts[#parts + 1] = h[1] .. ':' .. h[2] .. h[3]
  end
  return table.concat(parts, '\0')
end

-- Writes consecutive lines from 0-based `first` and their highlights ({text, spans} each).
local function put_lines(buf, first, items)
  local texts = {}
  for i, item in ipairs(items) do
    texts[i] = item[1]
  end
  api.nvim_buf_clear_namespace(buf, ns, first, first + #items)
  api.nvim_buf_set_lines(buf, first, first + #items, false, texts)
  for i, item in ipairs(items) do
    for _, h in ipairs(item[2]) do
      api.nvim_buf_set_extmark(buf, ns, first + i - 1, h[1], { end_col = h[2], hl_group = h[3] })
    end
  end
end

-- `n` empty lines inserted before 0-based line `at`.
local function insert_blank(buf, at, n)
  if n < READ_ABOVE then
    local lines = {}
    for i = 1, n do
      lines[i] = ''
    end
    api.nvim_buf_set_lines(buf, at, at, false, lines)
    return
  end
  local path = vim.fn.tempname()
  local fd = assert(uv.fs_open(path, 'w', 384))
  uv.fs_write(fd, string.rep('\n', n), -1)
  uv.fs_close(fd)
  api.nvim_buf_call(buf, function()
    vim.cmd('silent keepalt keepjumps lockmarks ' .. at .. 'read ++edit ++ff=unix ++enc=utf-8 ' .. vim.fn.fnameescape(path))
  end)
  os.remove(path)
end

-- Runs `fn` with the buffer modifiable, then marks it unmodified again.
local function editing(buf, fn)
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  if not ok then
    error(err, 0)
  end
end

-- The version a live view's title shows: its source's (a view's versions are its own, and its buffer reads as its
-- list's), from the source's buffer when one is open, else as last fetched (see source_version_changed).
local function source_version(derived)
  for _, other in pairs(M.views) do
    if other.list == derived.source and other.mirror then
      return other.mirror.version
    end
  end
  return derived.version
end

local function title_of(view)
  local model = view.mirror
  local derived = M.derived[view.list]
  local version = model and model.version
  if derived then
    version = model and source_version(derived)
  end
  return render.title_line(view.list, version, view.info or { list = view.list }, view.status, derived)
end

-- Writes the title line when it differs.
local function draw_title(view)
  local text, spans = title_of(view)
  local sig = signature(text, spans)
  if view.title_sig ~= sig then
    put_lines(view.buf, 0, { { text, spans } })
    view.title_sig = sig
  end
end

-- The list's columns when it is a table (as shown: a view's sort column wide enough for its arrow), else nil.
local function columns_of(view)
  local columns = view.info and view.info.columns
  if type(columns) == 'table' and #columns > 0 then
    local derived = M.derived[view.list]
    return render.sorted_columns(columns, derived and derived.sort)
  end
  return nil
end

-- The width empty states are centred in: the first window showing the buffer, else the editor's.
local function width_of(buf)
  local win = vim.fn.win_findbuf(buf)[1]
  return win and api.nvim_win_get_width(win) or vim.o.columns
end

-- Redraws the virtual lines: column titles below the title line; a list without rows shows its empty
-- state centred below its last line. Virtual, so every buffer line stays a title, header, footer or row.
local function decorate(view)
  local buf, model = view.buf, view.mirror
  api.nvim_buf_clear_namespace(buf, decor_ns, 0, -1)
  local columns = columns_of(view)
  if columns then
    local derived = M.derived[view.list]
    local header = render.columns_header(columns, derived and derived.sort)
    api.nvim_buf_set_extmark(buf, decor_ns, 0, 0, { virt_lines = { { { header, 'ListdHeader' } } } })
  end
  local state = view.info and view.info.emptyState
  if model and model.layout.total_rows == 0 and type(state) == 'table' then
    local width = width_of(buf)
    local lines = { { { '', 'Normal' } } }
    for i, text in ipairs(render.empty_lines(state)) do
      local pad = math.max(0, math.floor((width - vim.fn.strdisplaywidth(text)) / 2))
      lines[#lines + 1] = { { string.rep(' ', pad) .. text, i == 1 and 'ListdTitle' or 'ListdSecondary' } }
    end
    local last = api.nvim_buf_line_count(buf) - 1
    api.nvim_buf_set_extmark(buf, decor_ns, last, 0, { virt_lines = lines })
  end
  view.decor_width = width_of(buf)
  view.empty_shown = model and model.layout.total_rows == 0 and type(state) == 'table' and render.empty_lines(state) or nil
end

-- Writes the header and footer lines of section `s` (1-based).
local function draw_section(view, s)
  local layout = view.mirror.layout
  local section = layout.sections[s]
  put_lines(view.buf, layout.first_line[s] - 1, { { render.header_line(section, M.derived[view.list], columns_of(view)) } })
  if section.footer then
    put_lines(view.buf, layout.first_line[s] + section.count, { { render.footer_line(section) } })
  end
end

-- Rebuilds every line from the model: title, headers and footers, empty row lines (drawn later).
local function build(view)
  local buf, model = view.buf, view.mirror
  view.drawn, view.title_sig, view.needs_build = {}, nil, false
  editing(buf, function()
    api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    if not model then
      api.nvim_buf_set_lines(buf, 0, -1, false, { '' })
      return
    end
    local layout = model.layout
    if layout.line_count - 1 < READ_ABOVE then
      local lines = { '' }
      for _, section in ipairs(layout.sections) do
        lines[#lines + 1] = ''
        for _ = 1, section.count do
          lines[#lines + 1] = ''
        end
        if section.footer then
          lines[#lines + 1] = ''
        end
      end
      api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    else
      api.nvim_buf_set_lines(buf, 0, -1, false, { '' })
      insert_blank(buf, 1, layout.line_count - 1)
    end
    for s = 1, #layout.sections do
      draw_section(view, s)
    end
  end)
end

-- The ranges of flattened rows to keep and to have for each window showing the view:
-- {keep_lo, keep_hi, need_lo, need_hi} (half-open).
local function ranges(view)
  local out = {}
  local layout = view.mirror.layout
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    local top, bottom = unpack(api.nvim_win_call(win, function()
      return { vim.fn.line('w0'), vim.fn.line('w$') }
    end))
    local height = api.nvim_win_get_height(win)
    local margin = math.max(2 * height, M.min_margin)
    local lo, hi = layout:rows_between(top, math.max(bottom, top + height - 1))
    if hi <= lo then
      -- no row on screen (headers only): the rows around the first line
      local kind, s, flat = layout:at_line(top)
      lo = flat or (s and layout.first_row[s]) or 0
      hi = lo
    end
    local total = layout.total_rows
    out[#out + 1] = {
      math.max(0, lo - margin),
      math.min(total, hi + margin),
      math.max(0, lo - math.floor(margin / 2)),
      math.min(total, hi + math.floor(margin / 2)),
    }
  end
  return out
end

local function keeper(list)
  return function(flat)
    for _, r in ipairs(list) do
      if flat >= r[1] and flat < r[2] then
        return true
      end
    end
    return false
  end
end

local fetch, set_window

-- Drops the rows far from every window (their lines go empty), draws the cached rows near them, the
-- title, and fetches the rows a window is about to show.
local function refresh(view)
  local buf, model = view.buf, view.mirror
  if not api.nvim_buf_is_loaded(buf) then
    return -- writing to an unloaded buffer would load it again (BufReadCmd)
  end
  if view.needs_build then
    build(view)
  end
  editing(buf, function()
    draw_title(view)
    decorate(view)
    if not model then
      return
    end
    local list = ranges(view)
    view.ranges_key = vim.inspect(list)
    if #list == 0 then
      return
    end
    local near = keeper(list)
    local w = model.window
    -- A windowed subscription keeps its window's rows exact: keep them all (they are not sent again).
    local function keep(flat)
      return near(flat) or (w ~= nil and flat >= w.offset and flat < w.offset + w.limit)
    end
    model:prune(keep)
    local layout = model.layout
    local writes = {}
    for flat in pairs(view.drawn) do
      if not model.rows[flat] or not keep(flat) then
        view.drawn[flat] = nil
        writes[#writes + 1] = { flat, '', {} }
      end
    end
    local columns = columns_of(view)
    for flat, row in pairs(model.rows) do
      local text, spans = render.row_line(row, model.selection[row.id] == true, columns)
      local sig = signature(text, spans)
      if view.drawn[flat] ~= sig then
        view.drawn[flat] = sig
        writes[#writes + 1] = { flat, text, spans }
      end
    end
    table.sort(writes, function(a, b)
      return a[1] < b[1]
    end)
    -- Consecutive lines in one call.
    local i = 1
    while i <= #writes do
      local first = layout:line_of_row(writes[i][1])
      local items = { { writes[i][2], writes[i][3] } }
      local j = i + 1
      while j <= #writes and layout:line_of_row(writes[j][1]) == first + (j - i) do
        items[#items + 1] = { writes[j][2], writes[j][3] }
        j = j + 1
      end
      put_lines(buf, first - 1, items)
      i = j
    end
    if w then
      -- Windowed: the subscription's window moves to cover every window's rows and margins.
      local lo, hi = math.huge, -1
      local outside = false
      for _, r in ipairs(list) do
        lo, hi = math.min(lo, r[1]), math.max(hi, r[2])
        if r[3] < w.offset or r[4] > w.offset + w.limit then
          outside = true
        end
      end
      if hi - lo > M.max_window then
        -- Windows too far apart for one subscription window: the first one's rows (the others stay empty).
        lo, hi = list[1][1], list[1][2]
      end
      if outside and not (w.offset == lo and w.limit == math.min(hi - lo, M.max_window)) then
        set_window(view, lo, hi)
      end
      return
    end
    for _, r in ipairs(list) do
      for flat = r[3], r[4] - 1 do
        if not model.rows[flat] then
          fetch(view, r[1], r[2])
          return
        end
      end
    end
  end)
end

-- Draws once per batch of notifications. A buffer that cannot change right now (text locked, e.g.
-- in the command-line window) is rebuilt a moment later; other failures are reported once.
local function schedule_draw(view)
  if view.draw_pending then
    return
  end
  view.draw_pending = true
  vim.schedule(function()
    view.draw_pending = false
    if M.views[view.buf] ~= view then
      return
    end
    local start = uv.hrtime()
    local ok, err = pcall(refresh, view)
    view.stats.draws, view.stats.draw_ns = view.stats.draws + 1, view.stats.draw_ns + uv.hrtime() - start
    if not ok then
      view.needs_build = true
      view.draw_pending = true
      vim.defer_fn(function()
        view.draw_pending = false
        schedule_draw(view)
      end, 200)
      if not tostring(err):match('E565') and not tostring(err):match('E11') and not view.draw_error then
        view.draw_error = tostring(err)
        session.notify(view.list .. ': cannot draw: ' .. view.draw_error, vim.log.levels.ERROR)
      end
    end
  end)
end
M.schedule_draw = schedule_draw

-- Asks for the version of the source of the live view `list` (one request at a time), then redraws its title:
-- called when the view is made and when it changes, which a change of its source is behind.
local function refresh_source_version(list)
  local derived = M.derived[list]
  if not derived or derived.asking or not session.connected() then
    return
  end
  derived.asking = true
  session.request('list/info', { list = derived.source }, function(err, result)
    derived.asking = nil
    if M.derived[list] ~= derived then
      return
    end
    if not err and type(result) == 'table' and type(result.version) == 'number' and result.version ~= derived.version then
      derived.version = result.version
      for _, view in pairs(M.views) do
        if view.list == list then
          schedule_draw(view)
        end
      end
    end
  end)
end

---Redraws the buffers of `list` whose title, headers or column titles depend on M.derived[list].
---@param list string
function M.context_changed(list)
  refresh_source_version(list)
  for _, view in pairs(M.views) do
    if view.list == list and view.mirror then
      view.needs_build = true
      schedule_draw(view)
    end
  end
end

-- Asks for rows [lo, hi) at the model's version (one request at a time; the answer, if the list moved on
-- meanwhile, is carried forward over the changes since).
fetch = function(view, lo, hi)
  if view.fetching or hi <= lo then
    return
  end
  local model = view.mirror
  view.fetching = true
  local limit = math.min(hi - lo, 10000)
  session.request('query/window', { list = view.list, offset = lo, limit = limit, atVersion = model.version }, function(err, result)
    view.fetching = false
    if M.views[view.buf] ~= view or view.mirror ~= model then
      return
    end
    if err then
      if err.code ~= -32015 and not view.fetch_error then
        view.fetch_error = tostring(err.message)
        session.notify(view.list .. ': cannot fetch rows: ' .. view.fetch_error, vim.log.levels.WARN)
      end
      return
    end
    if result.version ~= model.version then
      return schedule_draw(view) -- the list moved on meanwhile: ask again at the new version
    end
    local list = ranges(view)
    local ok, why = window.try(model.install, model, result, #list == 0 and function()
      return true
    end or keeper(list))
    if not ok then
      session.notify(view.list .. ': resynchronising (' .. why .. ')', vim.log.levels.WARN)
      M.subscribe(view)
      return
    end
    schedule_draw(view)
  end)
end

-- Moves a windowed subscription's window to rows [lo, hi): the answer starts it afresh at the model's version
-- (every earlier didChange came before it), with the rows of the new window.
set_window = function(view, lo, hi)
  if view.fetching or hi <= lo then
    return
  end
  local model = view.mirror
  view.fetching = true
  local limit = math.min(hi - lo, M.max_window)
  session.request('list/setWindow', { list = view.list, offset = lo, limit = limit }, function(err, result)
    view.fetching = false
    if M.views[view.buf] ~= view or view.mirror ~= model then
      return
    end
    if err then
      if not view.fetch_error then
        view.fetch_error = tostring(err.message)
        session.notify(view.list .. ': cannot move the window: ' .. view.fetch_error, vim.log.levels.WARN)
      end
      return
    end
    local ok, why = window.try(model.move_window, model, result, lo, limit)
    if not ok then
      session.notify(view.list .. ': resynchronising (' .. why .. ')', vim.log.levels.WARN)
      M.subscribe(view)
      return
    end
    schedule_draw(view)
  end)
end

---Draws what windows near the view's rows need now (after scrolling, resizing).
---@param view table
function M.refresh(view)
  if not view.mirror or view.draw_pending or not api.nvim_buf_is_loaded(view.buf) then
    return
  end
  local ok, list = pcall(ranges, view)
  local recentre = view.empty_shown and width_of(view.buf) ~= view.decor_width
  if ok and vim.inspect(list) == view.ranges_key and not recentre then
    return -- the windows show the same rows: nothing to draw or fetch
  end
  schedule_draw(view)
end

---Whether the view shows all it should: no draw or fetch pending, every row near a window cached and drawn.
---@param view table
---@return boolean
function M.settled(view)
  return M.unsettled(view) == nil
end

---What the view still waits for, in words, or nil when it is settled (see M.settled).
---@param view table
---@return string|nil
function M.unsettled(view)
  if not view.mirror or view.draw_pending or view.fetching or view.needs_build then
    return string.format('model %s, draw pending %s, fetching %s, needs build %s', tostring(view.mirror ~= nil),
      tostring(view.draw_pending), tostring(view.fetching), tostring(view.needs_build))
  end
  for _, r in ipairs(ranges(view)) do
    for flat = r[3], r[4] - 1 do
      if not view.mirror.rows[flat] or not view.drawn[flat] then
        return string.format('row %d (cached %s, drawn %s) of the rows %d…%d a window needs; window %s, %d rows',
          flat, tostring(view.mirror.rows[flat] ~= nil), tostring(view.drawn[flat] ~= nil), r[3], r[4] - 1,
          vim.inspect(view.mirror.window), view.mirror.layout.total_rows)
      end
    end
  end
  return nil
end

-- What each window showing the view looks at: its view, the cursor's line kind, section and row, and the
-- item (with its ancestors) under the cursor when cached.
local function capture(view)
  local model, out = view.mirror, {}
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    local saved = api.nvim_win_call(win, vim.fn.winsaveview)
    local kind, s, flat = model.layout:at_line(saved.lnum)
    local w = { win = win, saved = saved, top = saved.topline, kind = kind, flat = flat }
    if s then
      w.section = model.layout.sections[s].id
    end
    local row = flat and model.rows[flat]
    if row then
      w.id, w.ancestors = row.id, {}
      local seen = {}
      while type(row.parent) == 'string' and not seen[row.parent] do
        seen[row.parent] = true
        w.ancestors[#w.ancestors + 1] = row.parent
        local parent = model:flat_of(row.parent)
        row = parent and model.rows[parent]
        if not row then
          break
        end
      end
    end
    out[#out + 1] = w
  end
  return out
end

-- Applies a map's line edits to the buffer, the drawn rows and each window's top line (as Vim moves a
-- top line for lines inserted or deleted above it: when the top line itself goes, the line above it
-- takes the top).
local function edit_lines(view, map, wins)
  local buf = view.buf
  editing(buf, function()
    for _, op in ipairs(map.ops) do
      if op.del then
        api.nvim_buf_clear_namespace(buf, ns, op.at, op.at + op.n)
        api.nvim_buf_set_lines(buf, op.at, op.at + op.n, false, {})
      else
        insert_blank(buf, op.at, op.n)
      end
      for _, w in ipairs(wins) do
        local first = op.at + 1
        if op.del then
          if w.top >= first + op.n then
            w.top = w.top - op.n
          elseif w.top >= first then
            w.top = math.max(1, first - 1)
          end
        elseif w.top >= first then
          w.top = w.top + op.n
        end
      end
    end
    local drawn = {}
    for flat, sig in pairs(view.drawn) do
      local to = map.in_place(flat)
      if to then
        drawn[to] = sig
      end
    end
    view.drawn = drawn
    for s in pairs(map.touched) do
      draw_section(view, s)
    end
  end)
end

-- The cursor's new line: its item's (followed through moves), else its nearest visible ancestor's (a collapse
-- hid it), else the next surviving row's, else the previous one's.
local function cursor_line(model, map, old_layout, w)
  local layout = model.layout
  if w.kind == 'title' then
    return 1
  elseif w.kind == 'header' or w.kind == 'footer' then
    local s = layout.by_id[w.section]
    if s then
      local section = layout.sections[s]
      if w.kind == 'footer' and section.footer then
        return layout.first_line[s] + 1 + section.count
      end
      return layout.first_line[s]
    end
  elseif w.kind == 'row' then
    local function line(flat)
      return flat and layout:line_of_row(flat)
    end
    local flat = w.id and model:flat_of(w.id)
    if flat then
      return line(flat) -- also an item deleted and inserted elsewhere (a replace)
    end
    local to = map.new_of_old(w.flat) -- the same row, moved or shifted (nil when deleted)
    if to then
      return line(to)
    end
    for _, id in ipairs(w.ancestors or {}) do
      if model:flat_of(id) then
        return line(model:flat_of(id))
      end
    end
    for flat = w.flat + 1, old_layout.total_rows - 1 do
      to = map.new_of_old(flat)
      if to then
        return line(to)
      end
    end
    for flat = w.flat - 1, 0, -1 do
      to = map.new_of_old(flat)
      if to then
        return line(to)
      end
    end
  end
  return math.max(1, math.min(w.saved.lnum, layout.line_count))
end

-- Puts each window's cursor on its line and its top where edit_lines left it, scrolled as little as
-- shows the cursor.
local function place(view, map, old_layout, wins)
  local model = view.mirror
  for _, w in ipairs(wins) do
    if api.nvim_win_is_valid(w.win) then
      local lnum = cursor_line(model, map, old_layout, w)
      api.nvim_win_call(w.win, function()
        local height, scrolloff = api.nvim_win_get_height(w.win), vim.api.nvim_eval('&scrolloff')
        vim.fn.winrestview({
          lnum = lnum,
          col = w.saved.col,
          curswant = w.saved.curswant,
          topline = viewport.settle(w.top, lnum, height, scrolloff, model.layout.line_count),
          leftcol = w.saved.leftcol,
        })
      end)
    end
  end
end

-- Applies a didChange; a change that does not fit the model makes the view resubscribe.
local function on_change(view, params)
  local model = view.mirror
  if not model then
    view.queue[#view.queue + 1] = params
    return
  end
  if type(params.version) ~= 'number' or params.version <= model.version then
    return -- already in the snapshot we subscribed at
  end
  local start = uv.hrtime()
  local loaded = api.nvim_buf_is_loaded(view.buf) and not view.needs_build
  local wins = loaded and capture(view) or {}
  local old_layout = model.layout
  local ok, map = window.try(model.apply_did_change, model, params)
  if not ok then
    session.notify(view.list .. ': resynchronising (' .. map .. ')', vim.log.levels.WARN)
    M.subscribe(view)
    return
  end
  if type(params.changeset.selectionMode) == 'string' and view.info then
    view.info.selectionMode = params.changeset.selectionMode
  end
  -- A table's new columns and a new (or removed: null) empty state.
  for _, key in ipairs({ 'columns', 'emptyState' }) do
    if params.changeset[key] ~= nil and view.info then
      view.info[key] = params.changeset[key] ~= vim.NIL and params.changeset[key] or nil
    end
  end
  if loaded then
    local edited = pcall(edit_lines, view, map, wins)
    if edited then
      place(view, map, old_layout, wins)
    else
      view.needs_build = true -- text locked (E565): rebuilt from the model a moment later
    end
  end
  view.stats.changes, view.stats.change_ns = view.stats.changes + 1, view.stats.change_ns + uv.hrtime() - start
  schedule_draw(view)
end

---Rebuilds the buffer from the view's model (after a subscribe or a status change), keeping each window's
---cursor on its item when it is still cached, else on its line.
---@param view table
function M.draw(view)
  if not api.nvim_buf_is_loaded(view.buf) then
    return
  end
  local saved = {}
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    saved[win] = api.nvim_win_call(win, vim.fn.winsaveview)
    saved[win].id = view.cursor_ids and view.cursor_ids[win]
  end
  build(view)
  refresh(view)
  local model = view.mirror
  for win, s in pairs(saved) do
    local count = api.nvim_buf_line_count(view.buf)
    local lnum = math.min(s.lnum, count)
    local flat = model and s.id and model:flat_of(s.id)
    if flat then
      lnum = model.layout:line_of_row(flat)
    end
    api.nvim_win_call(win, function()
      local height, scrolloff = api.nvim_win_get_height(win), vim.api.nvim_eval('&scrolloff')
      vim.fn.winrestview({
        lnum = lnum,
        col = s.col,
        topline = viewport.settle(math.min(s.topline, count), lnum, height, scrolloff, count),
      })
    end)
  end
  view.cursor_ids = nil
  refresh(view)
end

-- The item under each window's cursor, to find it again after a resubscribe.
local function remember_cursors(view)
  if not view.mirror then
    return
  end
  view.cursor_ids = {}
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    local lnum = api.nvim_win_get_cursor(win)[1]
    local kind, _, flat = view.mirror.layout:at_line(lnum)
    local row = kind == 'row' and view.mirror.rows[flat]
    view.cursor_ids[win] = row and row.id or nil
  end
end

-- The first row the view's windows show, to subscribe with the window they look at.
local function first_shown_row(view)
  if not view.mirror then
    return 0
  end
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    local top = api.nvim_win_call(win, function()
      return vim.fn.line('w0')
    end)
    local lo = view.mirror.layout:rows_between(top, top + api.nvim_win_get_height(win))
    return math.max(0, lo - M.min_margin)
  end
  return 0
end

---Subscribes the view to its list with a window of rows, then asks for the section counts and the
---selection at the version it answered (the model's start); waits when `wait`.
---@param view table
---@param wait boolean|nil
---@param drawn function|nil called after the first draw
function M.subscribe(view, wait, drawn)
  if not session.connected() then
    view.status = 'disconnected'
    schedule_draw(view)
    return
  end
  remember_cursors(view)
  local offset = first_shown_row(view)
  view.mirror, view.queue = nil, {}
  local done = false
  local function finish()
    done = true
    M.draw(view)
    if drawn then
      drawn()
    end
  end
  local function failed(err)
    view.status = 'error: ' .. tostring(err.message)
    session.notify(view.list .. ': ' .. tostring(err.message), vim.log.levels.ERROR)
    finish()
  end
  local params = { list = view.list, snapshot = 'window', window = { offset = offset, limit = math.min(2 * M.min_margin + 100, M.max_window) } }
  session.conn:request('list/subscribe', params, function(err, result)
    if M.views[view.buf] ~= view then
      done = true
      return
    end
    if err and err.code == UNKNOWN_LIST then
      view.status = 'no such list yet'
      session.notify("no list '" .. view.list .. "' (yet): its buffer shows it when it is created", vim.log.levels.WARN)
      return finish()
    elseif err then
      return failed(err)
    end
    local entry = result.lists[1]
    local answers = {}
    -- A windowed subscription's answer carries the counts and the selection; an older daemon's, only rows.
    local windowed = type(entry.sections) == 'table' and type(entry.selection) == 'table'
    local function got()
      if not answers.sections or not answers.selection or M.views[view.buf] ~= view then
        return
      end
      local ok, why = window.try(function()
        local model = window.new(view.list, entry.version, answers.sections, answers.selection)
        if windowed then
          model.window = { offset = params.window.offset, limit = params.window.limit }
        end
        if type(entry.window) == 'table' then
          model:install(entry.window, function()
            return true
          end)
        end
        view.mirror = model
      end)
      if not ok then
        view.status = 'bad snapshot'
        session.notify(view.list .. ': ' .. why, vim.log.levels.ERROR)
        return finish()
      end
      view.info, view.status = type(entry.info) == 'table' and entry.info or { list = view.list }, nil
      -- Columns and the empty state: in the info, or beside it in the snapshot.
      for _, key in ipairs({ 'columns', 'emptyState' }) do
        local value = view.info[key]
        if value == nil or value == vim.NIL then
          value = entry[key]
          if value == nil and type(entry.window) == 'table' then
            value = entry.window[key]
          end
        end
        view.info[key] = value ~= vim.NIL and value or nil
      end
      view.needs_build = true
      local queue = view.queue
      view.queue = {}
      for _, change in ipairs(queue) do
        on_change(view, change)
      end
      finish()
    end
    if windowed then
      answers.sections, answers.selection = { sections = entry.sections }, { items = entry.selection }
      return got()
    end
    for key, method in pairs({ sections = 'query/sections', selection = 'query/selection' }) do
      session.conn:request(method, { list = view.list, atVersion = entry.version }, function(e, answer)
        if e then
          if not done then
            failed(e)
          end
          return
        end
        answers[key] = answer
        got()
      end)
    end
  end)
  if wait then
    messages.wait(config.options.timeout, function()
      return done
    end, 5)
  end
end

-- List buffers read like a list: no wrapping, a cursor line, no folds or spelling.
local function window_options(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.wo[win].wrap = false
    vim.wo[win].cursorline = true
    vim.wo[win].foldenable = false
    vim.wo[win].spell = false
    vim.wo[win].list = false
  end
end

local function first_item_line(view)
  local layout = view.mirror and view.mirror.layout
  if layout and layout.total_rows > 0 then
    return layout:line_of_row(0)
  end
  return 1
end

-- Windows of a freshly filled buffer whose cursor is on the title go to the first item.
local function to_first_item(view)
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    if api.nvim_win_get_cursor(win)[1] == 1 then
      api.nvim_win_set_cursor(win, { first_item_line(view), 0 })
    end
  end
end

-- What the line-based callers see (`view.rendered`): keys, rows and line numbers computed from the model.
-- keys[lnum]: 'title', 'h:SECTION', 'f:SECTION', 'i:ITEM' (nil for a row not drawn yet);
-- rows[lnum]: the cached row; line_of[key]: the line of a key (items: when cached).
local function rendered(view)
  local function at(lnum)
    local model = view.mirror
    if not model then
      return lnum == 1 and 'title' or nil
    end
    local kind, s, flat = model.layout:at_line(lnum)
    if kind == 'title' then
      return 'title'
    elseif kind == 'header' or kind == 'footer' then
      return kind:sub(1, 1) .. ':' .. model.layout.sections[s].id
    elseif kind == 'row' then
      return nil, model.rows[flat]
    end
  end
  return {
    keys = setmetatable({}, {
      __index = function(_, lnum)
        local key, row = at(lnum)
        return key or (row and 'i:' .. row.id)
      end,
    }),
    rows = setmetatable({}, {
      __index = function(_, lnum)
        local _, row = at(lnum)
        return row
      end,
    }),
    line_of = setmetatable({}, {
      __index = function(_, key)
        local model = view.mirror
        if key == 'title' then
          return 1
        elseif not model or type(key) ~= 'string' then
          return nil
        end
        local kind, id = key:sub(1, 1), key:sub(3)
        if kind == 'i' then
          local flat = model:flat_of(id)
          return flat and model.layout:line_of_row(flat)
        end
        local s = model.layout.by_id[id]
        if not s then
          return nil
        elseif kind == 'h' then
          return model.layout.first_line[s]
        elseif kind == 'f' and model.layout.sections[s].footer then
          return model.layout.first_line[s] + 1 + model.layout.sections[s].count
        end
      end,
    }),
  }
end

-- Unsubscribes when the buffer goes away.
local function detach(view)
  if M.views[view.buf] ~= view then
    return
  end
  M.views[view.buf] = nil
  if session.subscribers[view.list] and session.subscribers[view.list].view == view then
    session.subscribers[view.list] = nil
    session.request('list/unsubscribe', { list = view.list })
  end
end

-- Scrolling, moving the cursor, resizing: draw and fetch what the windows now show. A timer catches what
-- no event reports (a window scrolled by a script); it only looks, it fetches nothing that is there.
local group = api.nvim_create_augroup('listd_window', { clear = true })
local window_events = { 'WinScrolled', 'CursorMoved', 'VimResized', 'WinEnter', 'BufWinEnter' }
if vim.fn.exists('##WinResized') == 1 then
  window_events[#window_events + 1] = 'WinResized' -- a window's width changed: recentre an empty state
end
api.nvim_create_autocmd(window_events, {
  group = group,
  callback = function()
    for _, view in pairs(M.views) do
      M.refresh(view)
    end
  end,
})
local poll
local function start_poll()
  if poll then
    return
  end
  poll = uv.new_timer()
  poll:start(200, 200, vim.schedule_wrap(function()
    if not poll then
      return -- a tick queued before the timer stopped
    end
    if next(M.views) == nil then
      poll:stop()
      poll:close()
      poll = nil
      return
    end
    for _, view in pairs(M.views) do
      if view.mirror and not view.fetching and not view.draw_pending and api.nvim_buf_is_loaded(view.buf) then
        if view.empty_shown and width_of(view.buf) ~= view.decor_width then
          schedule_draw(view) -- its window's width changed: recentre the empty state
        end
        local ok, list = pcall(ranges, view)
        if ok then
          for _, r in ipairs(list) do
            for flat = r[3], r[4] - 1 do
              if not view.mirror.rows[flat] or not view.drawn[flat] then
                schedule_draw(view)
                break
              end
            end
          end
        end
      end
    end
  end))
end

local function attach(buf, list)
  local view = M.views[buf]
  if view and view.list ~= list then
    detach(view)
    view = nil
  end
  local conn, err = session.ensure() -- before registering: a new connection resubscribes registered views
  if not view then
    -- stats: how many changes and draws, and the time spent in them (for test/bench.lua)
    view = { buf = buf, list = list, queue = {}, drawn = {}, stats = { changes = 0, change_ns = 0, draws = 0, draw_ns = 0 } }
    view.rendered = rendered(view)
    M.views[buf] = view
    local bo = vim.bo[buf]
    bo.buftype, bo.bufhidden, bo.swapfile, bo.modifiable = 'nofile', 'wipe', false, false
    bo.undolevels = -1 -- a live list rewrites lines every second: keep no undo history
    bo.filetype = 'listd'
    api.nvim_buf_set_var(buf, 'listd_list', list)
    api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete', 'BufUnload' }, {
      buffer = buf,
      once = true,
      callback = function()
        detach(view)
      end,
    })
    api.nvim_create_autocmd('BufWinEnter', {
      buffer = buf,
      callback = function()
        window_options(buf)
      end,
    })
    require('listd.keymaps').apply(buf)
  end
  start_poll()
  session.subscribers[list] = {
    view = view,
    on_change = function(params)
      on_change(view, params)
      if M.derived[view.list] then
        refresh_source_version(view.list)
      end
    end,
    on_dispose = function()
      view.status = 'disposed'
      schedule_draw(view)
    end,
    -- A list that did not exist, or was disposed, is (again) created: show it.
    on_create = function()
      if view.status == 'no such list yet' or view.status == 'disposed' then
        M.subscribe(view, false, function()
          to_first_item(view)
        end)
      end
    end,
    -- The daemon ended the subscription (this client fell too far behind): subscribe again.
    on_resync = function()
      M.subscribe(view)
    end,
    on_close = function()
      view.status = 'disconnected'
      schedule_draw(view)
    end,
  }
  window_options(buf)
  if not conn then
    session.notify(err, vim.log.levels.ERROR)
    view.status = 'disconnected'
    M.draw(view)
    return
  end
  M.subscribe(view, true)
  if api.nvim_get_current_buf() == buf and api.nvim_win_get_cursor(0)[1] == 1 then
    api.nvim_win_set_cursor(0, { first_item_line(view), 0 })
  end
end

---Makes `buf` show `list`: scratch options, subscription, first render, keymaps. Idempotent.
---Messages wait until it returns: it runs inside `:edit` (BufReadCmd), see listd.messages.
---@param buf integer
---@param list string
function M.attach(buf, list)
  messages.hold(attach, buf, list)
end

-- A new connection (:Listd demo, reconnect): every open list buffer subscribes again on it.
table.insert(session.on_connect, function()
  for _, view in pairs(M.views) do
    M.subscribe(view)
  end
end)

---The view of the current buffer and the row under the cursor (nil on headers, footers and rows not
---fetched yet).
---@return table|nil view
---@return table|nil row
function M.current()
  local view = M.views[api.nvim_get_current_buf()]
  if not view or not view.mirror then
    return view, nil
  end
  return view, view.rendered.rows[api.nvim_win_get_cursor(0)[1]]
end

---Moves the cursor of the current window to an item's line, if its row is cached.
---@param view table
---@param id string
---@return boolean moved
function M.goto_item(view, id)
  local lnum = view.rendered and view.rendered.line_of['i:' .. id]
  if lnum and api.nvim_get_current_buf() == view.buf then
    api.nvim_win_set_cursor(0, { lnum, 0 })
    return true
  end
  return false
end

return M
