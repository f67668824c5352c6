-- The one changeset decoder (Protocol/README.md §4 on row counts): over a layout, the new layout, where each old row
-- went, the payloads it carries, and the buffer line edits that turn the old lines into the new ones. O(entries +
-- sections). listd.window keeps the rows around a buffer's windows with it, listd.mirror every row.
local layout = require('listd.layout')

local M = {}

local KNOWN = {
  sectionDeletes = true, sectionInserts = true, sectionMoves = true, sectionReloads = true,
  itemDeletes = true, itemInserts = true, itemMoves = true, itemReloads = true, itemReconfigures = true,
  selected = true, deselected = true, expanded = true, collapsed = true, selectionMode = true,
  columns = true, emptyState = true, editing = true, -- list attributes (the buffer reads them from the changeset)
  enter = true, -- windowed subscriptions: rows that came into the window
}

-- A changeset that does not fit: raised as a table so callers can tell it from a bug.
local function mismatch(fmt, ...)
  error({ mismatch = string.format(fmt, ...) }, 0)
end
M.mismatch = mismatch

---Runs `fn(...)` and returns true and its result, or false and the mismatch message (other errors propagate).
---@return boolean ok
---@return any result or mismatch
function M.try(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then
    return true, err
  end
  if type(err) == 'table' and err.mismatch then
    return false, err.mismatch
  end
  error(err, 0)
end

local function is_int(value)
  return type(value) == 'number' and value == math.floor(value)
end
M.is_int = is_int

local function int(value, what)
  if not is_int(value) then
    mismatch('expected an integer for %s, got %s', what, vim.inspect(value))
  end
  return value
end

local function ints(value, count, what)
  if type(value) ~= 'table' or #value ~= count then
    mismatch('expected %d integers for %s, got %s', count, what, vim.inspect(value))
  end
  for i = 1, count do
    int(value[i], what)
  end
  return value
end

local function str(value, what)
  if type(value) ~= 'string' then
    mismatch('expected a string for %s, got %s', what, vim.inspect(value))
  end
  return value
end
M.str = str

local function optional_string(value, what)
  if value == nil or value == vim.NIL then
    return nil
  end
  return str(value, what)
end
M.optional_string = optional_string

---A wire section's id, header, footer, kind and header mode (a snapshot's, an insert's, a reload's, query/sections'),
---checked, added to `fields` (its count or rows).
---@return table section
local function section(value, fields)
  fields.id = value.id
  fields.header = optional_string(value.header, 'header')
  fields.footer = optional_string(value.footer, 'footer')
  fields.kind = optional_string(value.kind, 'kind')
  fields.headerMode = optional_string(value.headerMode, 'headerMode')
  return fields
end
M.section = section

local function check_rows(rows)
  for _, row in ipairs(rows) do
    if type(row) ~= 'table' or type(row.id) ~= 'string' then
      mismatch('row without id: %s', vim.inspect(row))
    end
  end
  return rows
end
M.check_rows = check_rows

---Checks a `list/didChange` params object `{list, version, previousVersion, changeset}` for a `what` ('model',
---'mirror') of `list` at `version`: raises a mismatch if it is for another list or does not start at `version`.
---A subscriber that fell behind gets the versions it missed composed into one change (version − previousVersion > 1).
function M.check_did_change(params, list, version, what)
  if params.list ~= list then
    mismatch("didChange for list %s, %s of '%s'", tostring(params.list), what, list)
  end
  if not is_int(params.previousVersion) or not is_int(params.version) or type(params.changeset) ~= 'table' then
    mismatch('didChange without versions or changeset')
  end
  if params.previousVersion ~= version then
    mismatch('didChange from version %d applied to a %s at version %d', params.previousVersion, what, version)
  end
  if params.version <= params.previousVersion then
    mismatch('didChange from %d to %d', params.previousVersion, params.version)
  end
end

-- `{"at": [section, start], "rows": [row…]}` → section, start (0-based, as on the wire), rows, their count;
-- a windowed subscriber's `{"at": [section, start], "count": n}` (rows outside its window) → section, start, nil, n.
local function run(value)
  if type(value) == 'table' and value.rows == nil and value.at ~= nil and value.count ~= nil then
    local at, n = ints(value.at, 2, 'at'), int(value.count, 'count')
    if n <= 0 then
      mismatch('empty row run: %s', vim.inspect(value))
    end
    return at[1], at[2], nil, n
  end
  if type(value) ~= 'table' or type(value.rows) ~= 'table' or #value.rows == 0 or value.at == nil then
    mismatch('row run without at or rows: %s', vim.inspect(value))
  end
  local at = ints(value.at, 2, 'at')
  return at[1], at[2], check_rows(value.rows), #value.rows
end

-- How many values of the ascending array `sorted` are ≤ `value`.
local function count_le(sorted, value)
  local lo, hi = 1, #sorted
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    if sorted[mid] <= value then
      lo = mid + 1
    else
      hi = mid - 1
    end
  end
  return lo - 1
end

---Maps `changeset` over `old` (a listd.layout). `cached` (flattened row → row) lets reloads be checked
---against the rows the client has. Raises a mismatch (see M.try) when it does not fit.
---@return table map {new = layout, ops, updated = {[old flat] = row}, is_stale(old flat), arrived = {[new flat] = row}, new_of_old(flat), in_place(flat), touched = {[new section] = true}}
function M.compute(old, changeset, cached)
  if type(changeset) ~= 'table' then
    mismatch('changeset is not an object')
  end
  for key in pairs(changeset) do
    if not KNOWN[key] then
      mismatch("unknown changeset member '%s'", tostring(key))
    end
  end
  local function entries(key)
    local value = changeset[key]
    if value == nil then
      return {}
    end
    if type(value) ~= 'table' or #value == 0 then
      mismatch("'%s' must be a non-empty array when present", key)
    end
    return value
  end
  local olds = old.sections
  local old_count = #olds
  cached = cached or {}

  -- 1. Section reloads and row updates, in old coordinates.
  local reloads = {}
  for _, reload in ipairs(entries('sectionReloads')) do
    local index = int(reload.index, 'sectionReloads.index')
    local target = olds[index + 1]
    if index < 0 or index >= old_count or target == nil or target.id ~= reload.id then
      mismatch('section reload at %d does not match', index)
    end
    reloads[index + 1] = section(reload, {})
  end
  local updated, stale = {}, {} -- stale: runs {first, n} of old flattened rows changed outside the window
  for _, key in ipairs({ 'itemReloads', 'itemReconfigures' }) do
    for _, update in ipairs(entries(key)) do
      local s, start, rows, n = run(update)
      if s < 0 or s >= old_count or start < 0 or start + n > olds[s + 1].count then
        mismatch('row update at [%d, %d] is out of range', s, start)
      end
      local first = old.first_row[s + 1] + start
      if not rows then
        stale[#stale + 1] = { first, n } -- changed, and outside the window: what we have of it is stale
      end
      for offset, row in ipairs(rows or {}) do
        local have = cached[first + offset - 1]
        if have and have.id ~= row.id then
          mismatch('row update at [%d, %d] does not match %s', s, start + offset - 1, row.id)
        end
        updated[first + offset - 1] = row
      end
    end
  end

  -- 2. Removals in old coordinates: rows (moved ones noted with their destination), then sections.
  -- Per old section (1-based): runs {r, n, to = {section0, at}?} of removed rows (`to`: moved there).
  local removals = {}
  local placements = {} -- per new section (0-based): runs {at, n, rows?} of rows placed at consecutive indexes
  local function remove(s, r, n, to)
    if s < 0 or s >= old_count or r < 0 or r + n > olds[s + 1].count then
      mismatch('old index path [%d, %d] is out of range', s, r + n - 1)
    end
    local list = removals[s + 1] or {}
    removals[s + 1] = list
    list[#list + 1] = { r = r, n = n, to = to }
  end
  for _, delete in ipairs(entries('itemDeletes')) do
    local n = ints(delete, 3, 'itemDeletes')
    if n[3] <= 0 then
      mismatch('empty item delete')
    end
    remove(n[1], n[2], n[3])
  end
  for _, move in ipairs(entries('itemMoves')) do
    local n = ints(move, 5, 'itemMoves')
    if n[5] <= 0 then
      mismatch('empty item move')
    end
    remove(n[1], n[2], n[5], { n[3], n[4] })
    local list = placements[n[3]] or {}
    placements[n[3]] = list
    list[#list + 1] = { at = n[4], n = n[5] }
  end
  -- Sorted, not overlapping; `starts` and `upto` (rows removed up to each run's end) for binary searches.
  local removed_count, starts, upto = {}, {}, {}
  for s, list in pairs(removals) do
    table.sort(list, function(a, b)
      return a.r < b.r
    end)
    local st, up, total = {}, {}, 0
    for i, run in ipairs(list) do
      if i > 1 and list[i - 1].r + list[i - 1].n > run.r then
        mismatch('old index path [%d, %d] is removed twice', s - 1, run.r)
      end
      total = total + run.n
      st[i], up[i] = run.r, total
    end
    removed_count[s], starts[s], upto[s] = total, st, up
  end
  -- The removal run holding old row r of section s (1-based), if any, and the rows removed before r.
  local function removal(s, r)
    if not starts[s] then
      return nil, 0
    end
    local i = count_le(starts[s], r)
    if i == 0 then
      return nil, 0
    end
    local run = removals[s][i]
    if r < run.r + run.n then
      return run, upto[s][i] - run.n + (r - run.r)
    end
    return nil, upto[s][i]
  end
  local gone, moved_section = {}, {}
  for _, delete in ipairs(entries('sectionDeletes')) do
    local n = ints(delete, 2, 'sectionDeletes')
    if n[1] < 0 or n[2] <= 0 or n[1] + n[2] > old_count then
      mismatch('section delete [%d, %d] is out of range', n[1], n[2])
    end
    for index = n[1] + 1, n[1] + n[2] do
      if gone[index] then
        mismatch('section %d is removed twice', index - 1)
      end
      gone[index] = true
    end
  end
  local arriving = {}
  for _, move in ipairs(entries('sectionMoves')) do
    local n = ints(move, 2, 'sectionMoves')
    if n[1] < 0 or n[1] >= old_count or gone[n[1] + 1] then
      mismatch('section move [%d, %d] is out of range or removes a section twice', n[1], n[2])
    end
    gone[n[1] + 1], moved_section[n[1] + 1] = true, true
    arriving[#arriving + 1] = { at = int(n[2], 'sectionMoves'), old = n[1] + 1 }
  end

  -- 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
  for _, insert in ipairs(entries('sectionInserts')) do
    if type(insert) ~= 'table' or type(insert.section) ~= 'table' then
      mismatch('section insert without section')
    end
    local value = insert.section
    if value.rows == nil and is_int(value.rowCount) then
      value.rows = {} -- a lean changeset's section: its count only
    end
    if type(value.id) ~= 'string' or type(value.rows) ~= 'table' then
      mismatch('section without id or rows: %s', vim.inspect(value))
    end
    -- A windowed subscriber's: rowCount rows, of which `rows` from index rowsAt.
    if value.rowCount ~= nil then
      local count, at = int(value.rowCount, 'rowCount'), #value.rows > 0 and int(value.rowsAt, 'rowsAt') or 0
      if count < 0 or at < 0 or at + #value.rows > count then
        mismatch('inserted section %s: rows from %d do not fit its %d rows', value.id, at, count)
      end
    end
    arriving[#arriving + 1] = { at = int(insert.index, 'sectionInserts.index'), value = value }
  end
  table.sort(arriving, function(a, b)
    return a.at < b.at
  end)
  local news, next_arriving, next_old = {}, 1, 1
  local function base_entry(i)
    local s = olds[i]
    local reload = reloads[i]
    local entry = {
      id = s.id,
      header = s.header,
      footer = s.footer,
      kind = s.kind,
      headerMode = s.headerMode,
      count = s.count - (removed_count[i] or 0),
      old = i,
    }
    if reload then
      -- A reload carries the section's whole new header, footer, kind and header mode (§4).
      entry.header, entry.footer, entry.kind, entry.headerMode = reload.header, reload.footer, reload.kind, reload.headerMode
    end
    return entry
  end
  while true do
    while next_old <= old_count and gone[next_old] do
      next_old = next_old + 1
    end
    local a = arriving[next_arriving]
    if a and a.at == #news then
      local entry
      if a.old then
        entry = base_entry(a.old)
      else
        entry = section(a.value, {
          count = a.value.rowCount or #check_rows(a.value.rows),
          rows = check_rows(a.value.rows),
          rows_at = #a.value.rows > 0 and a.value.rowsAt or 0,
        })
      end
      entry.arrived = true
      news[#news + 1] = entry
      next_arriving = next_arriving + 1
    elseif next_old <= old_count then
      news[#news + 1] = base_entry(next_old)
      next_old = next_old + 1
    elseif a then
      mismatch('new section index %d is out of range or repeated', a.at)
    else
      break
    end
  end
  local new_index_of_old = {}
  for j, e in ipairs(news) do
    if e.old then
      new_index_of_old[e.old] = j
    end
  end

  -- 4. Inserted and moved rows at their new index paths, ascending.
  for _, insert in ipairs(entries('itemInserts')) do
    local s, start, rows, n = run(insert)
    local list = placements[s] or {}
    placements[s] = list
    list[#list + 1] = { at = start, n = n, rows = rows }
  end
  local placed = {} -- per new section (1-based): runs sorted by `at`, not overlapping
  local keys = {} -- per new section, per run: its `at` less the rows placed before it (ascending)
  local before = {} -- per new section, per run: the rows placed before it
  for s, list in pairs(placements) do
    if s < 0 or s >= #news then
      mismatch('new section index %d is out of range', s)
    end
    table.sort(list, function(a, b)
      return a.at < b.at
    end)
    local e = news[s + 1]
    local count = 0
    for _, p in ipairs(list) do
      count = count + p.n
    end
    local total = e.count + count
    local k, b, placed_before = {}, {}, 0
    for i, p in ipairs(list) do
      if p.at < 0 or p.at + p.n > total or (i > 1 and list[i - 1].at + list[i - 1].n > p.at) then
        mismatch('new index path [%d, %d] is out of range or repeated', s, p.at)
      end
      k[i], b[i] = p.at - placed_before, placed_before
      placed_before = placed_before + p.n
    end
    list.count = count
    placed[s + 1], keys[s + 1], before[s + 1] = list, k, b
  end

  -- 5. Selection ids; `expanded` / `collapsed` only report state the rows already carry.
  for _, key in ipairs({ 'selected', 'deselected', 'expanded', 'collapsed' }) do
    for _, id in ipairs(entries(key)) do
      str(id, key)
    end
  end

  -- The new layout.
  local sections, footer_before = {}, {}
  for j, e in ipairs(news) do
    local base = e.count
    e.base = base
    e.count = base + (placed[j] and placed[j].count or 0)
    sections[j] = { id = e.id, header = e.header, footer = e.footer, kind = e.kind, headerMode = e.headerMode, count = e.count }
    -- Whether the buffer has the footer line of this section before phase D.
    footer_before[j] = (e.arrived and e.footer ~= nil) or (not e.arrived and olds[e.old].footer ~= nil)
  end
  local new = layout.new(sections)

  -- Buffer edits (0-based line indexes): A removals, descending; B sections, C rows, D footers, ascending.
  local ops = {}
  local function del(at, n)
    if n > 0 then
      ops[#ops + 1] = { del = true, at = at, n = n }
    end
  end
  local function ins(at, n)
    if n > 0 then
      ops[#ops + 1] = { at = at, n = n }
    end
  end
  for s = old_count, 1, -1 do
    local header = old.first_line[s] - 1
    if gone[s] then
      del(header, 1 + olds[s].count + (olds[s].footer and 1 or 0))
    elseif removals[s] then
      local list = removals[s]
      for i = #list, 1, -1 do
        del(header + 1 + list[i].r, list[i].n)
      end
    end
  end
  local line = 1
  for j, e in ipairs(news) do
    if e.arrived then
      ins(line, 1 + e.base + (e.footer and 1 or 0))
    end
    line = line + 1 + e.base + (footer_before[j] and 1 or 0)
  end
  line = 1
  for j, e in ipairs(news) do
    for _, p in ipairs(placed[j] or {}) do
      ins(line + 1 + p.at, p.n)
    end
    line = line + 1 + e.count + (footer_before[j] and 1 or 0)
  end
  local touched = {}
  line = 1
  for j, e in ipairs(news) do
    local want = e.footer ~= nil
    local at = line + 1 + e.count
    if footer_before[j] and not want then
      del(at, 1)
      touched[j] = true
    elseif want and not footer_before[j] then
      ins(at, 1)
      touched[j] = true
    end
    if e.arrived or (e.old and reloads[e.old]) then
      touched[j] = true
    end
    line = line + 1 + e.count + (want and 1 or 0)
  end

  -- Old flattened rows → new ones.
  local function new_of_old(flat, only_in_place)
    local s, r = old:locate(flat)
    if not s then
      return nil
    end
    local run, removed_before = removal(s, r)
    if run then
      if not run.to or only_in_place then
        return nil -- deleted; or moved, its line deleted
      end
      return new.first_row[run.to[1] + 1] + run.to[2] + (r - run.r)
    end
    local j = new_index_of_old[s]
    if not j or (only_in_place and moved_section[s]) then
      return nil
    end
    local k = r - removed_before
    -- Rows placed before an existing row of rank k: all of each run whose key is ≤ k.
    local pos = k
    local runs = keys[j] and count_le(keys[j], k) or 0
    if runs > 0 then
      pos = pos + before[j][runs] + placed[j][runs].n
    end
    return new.first_row[j] + pos
  end

  -- Rows whose payload the changeset carries, at their new flattened index; moved rows' sources.
  local arrived, moves = {}, {}
  for j, list in pairs(placed) do
    for _, p in ipairs(list) do
      for t, row in ipairs(p.rows or {}) do
        arrived[new.first_row[j] + p.at + t - 1] = row
      end
    end
  end
  for j, e in ipairs(news) do
    if e.rows then
      for k, row in ipairs(e.rows) do
        arrived[new.first_row[j] + e.rows_at + k - 1] = row
      end
    end
  end
  -- Windowed subscriptions: rows that came into the window, new coordinates.
  for _, enter in ipairs(entries('enter')) do
    local s, start, rows = run(enter)
    if not rows or s < 0 or s >= #news or start < 0 or start + #rows > news[s + 1].count then
      mismatch('entering rows at [%d, %d] are out of range', s, start)
    end
    for k, row in ipairs(rows) do
      arrived[new.first_row[s + 1] + start + k - 1] = row
    end
  end

  return {
    new = new,
    ops = ops,
    updated = updated,
    is_stale = function(flat)
      for _, run in ipairs(stale) do
        if flat >= run[1] and flat < run[1] + run[2] then
          return true
        end
      end
      return false
    end,
    arrived = arrived,
    moves = moves,
    touched = touched,
    selected = changeset.selected or {},
    deselected = changeset.deselected or {},
    new_of_old = function(flat)
      return new_of_old(flat, false)
    end,
    in_place = function(flat)
      return new_of_old(flat, true)
    end,
  }
end

---The rows held after the change `map` (of M.compute): `rows` (old flattened row → row) carried to their new
---places, updated, and the payloads the change carries; a row changed outside a window (its payload stale) is dropped.
---@return table {[new flat] = row}
function M.carry(map, rows)
  local carried = {}
  for flat, row in pairs(rows) do
    local to = not map.is_stale(flat) and map.new_of_old(flat)
    if to then
      carried[to] = map.updated[flat] or row
    end
  end
  for flat, row in pairs(map.updated) do
    local to = map.new_of_old(flat)
    if to then
      carried[to] = row
    end
  end
  for flat, row in pairs(map.arrived) do
    carried[flat] = row
  end
  return carried
end

return M
