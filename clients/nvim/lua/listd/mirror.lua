-- The client-side copy of one list: a port of Sources/ListClient/Mirror.swift (Protocol/README.md §4).
local M = {}

local Mirror = {}
Mirror.__index = Mirror

local KNOWN = {
  sectionDeletes = true, sectionInserts = true, sectionMoves = true, sectionReloads = true,
  itemDeletes = true, itemInserts = true, itemMoves = true, itemReloads = true, itemReconfigures = true,
  selected = true, deselected = true, expanded = true, collapsed = true, selectionMode = true,
  columns = true, emptyState = true, editing = true, -- list attributes, not rows
}

-- A changeset that does not fit: raised as a table so callers can tell it from a bug.
local function mismatch(fmt, ...)
  error({ mismatch = string.format(fmt, ...) }, 0)
end

local function is_int(value)
  return type(value) == 'number' and value == math.floor(value)
end

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

local function optional_string(value, what)
  if value == nil or value == vim.NIL then
    return nil
  end
  return str(value, what)
end

local function check_rows(rows)
  for _, row in ipairs(rows) do
    if type(row) ~= 'table' or type(row.id) ~= 'string' then
      mismatch('row without id: %s', vim.inspect(row))
    end
  end
  return rows
end

local function section(value)
  if type(value) ~= 'table' or type(value.id) ~= 'string' or type(value.rows) ~= 'table' then
    mismatch('section without id or rows: %s', vim.inspect(value))
  end
  return {
    id = value.id,
    header = optional_string(value.header, 'header'),
    footer = optional_string(value.footer, 'footer'),
    kind = optional_string(value.kind, 'kind'),
    headerMode = optional_string(value.headerMode, 'headerMode'),
    rows = check_rows(value.rows),
  }
end

-- `{"at": [section, start], "rows": [row…]}` → section, start (0-based, as on the wire), rows.
local function run(value)
  if type(value) ~= 'table' or type(value.rows) ~= 'table' or #value.rows == 0 or value.at == nil then
    mismatch('row run without at or rows: %s', vim.inspect(value))
  end
  local at = ints(value.at, 2, 'at')
  return at[1], at[2], check_rows(value.rows)
end

---A mirror of `list` at `version` from a wire snapshot `{sections, selection}`.
---@param list string
---@param version integer
---@param snapshot table
---@return table mirror {list, version, sections = {{id, header?, footer?, kind?, headerMode?, rows}}, selection = {[id] = true}}
function M.new(list, version, snapshot)
  if type(snapshot) ~= 'table' or type(snapshot.sections) ~= 'table' or type(snapshot.selection) ~= 'table' then
    mismatch('snapshot without sections or selection')
  end
  local self = setmetatable({ list = list, version = version, sections = {}, selection = {} }, Mirror)
  for i, value in ipairs(snapshot.sections) do
    self.sections[i] = section(value)
  end
  for _, id in ipairs(snapshot.selection) do
    self.selection[str(id, 'selection')] = true
  end
  return self
end

---A mirror from a `list/subscribe` answer entry `{list, version, snapshot, …}`.
---@param entry table
---@return table mirror
function M.from_subscribe(entry)
  if type(entry) ~= 'table' or type(entry.list) ~= 'string' or not is_int(entry.version) then
    mismatch('subscribe answer without list, version or snapshot')
  end
  return M.new(entry.list, entry.version, entry.snapshot)
end

---Runs `fn(...)` and returns true, or false and the mismatch message (other errors propagate).
---@return boolean ok
---@return string|nil mismatch
function M.try(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then
    return true
  end
  if type(err) == 'table' and err.mismatch then
    return false, err.mismatch
  end
  error(err, 0)
end

-- A deep copy: applying works on a copy so that a mismatch changes nothing.
---Places each of `placed` ({at = new index, value}) at its index, the `existing` values filling
---the other indexes in order. Calls `fail(at)` for an index out of range or repeated.
local function interleave(placed, existing, fail)
  table.sort(placed, function(a, b)
    return a.at < b.at
  end)
  local result, next_placed, next_existing = {}, 1, 1
  while next_placed <= #placed or next_existing <= #existing do
    if next_placed <= #placed and placed[next_placed].at == #result then
      result[#result + 1] = placed[next_placed].value
      next_placed = next_placed + 1
    elseif next_existing <= #existing then
      result[#result + 1] = existing[next_existing]
      next_existing = next_existing + 1
    else
      fail(placed[next_placed].at)
    end
  end
  return result
end

local function copy_sections(sections)
  local out = {}
  for i, s in ipairs(sections) do
    local rows = {}
    for j, row in ipairs(s.rows) do
      rows[j] = row
    end
    out[i] = { id = s.id, header = s.header, footer = s.footer, kind = s.kind, headerMode = s.headerMode, rows = rows }
  end
  return out
end

---Applies one `list/didChange` params object `{list, version, previousVersion, changeset}`.
---Raises a mismatch (changing nothing) if it is for another list, skips or repeats a version,
---or does not fit the rows; use M.try to catch it.
---@param params table
function Mirror:apply_did_change(params)
  if params.list ~= self.list then
    mismatch("didChange for list %s, mirror of '%s'", tostring(params.list), self.list)
  end
  if not is_int(params.previousVersion) or not is_int(params.version) or type(params.changeset) ~= 'table' then
    mismatch('didChange without versions or changeset')
  end
  if params.previousVersion ~= self.version then
    mismatch('didChange from version %d applied to a mirror at version %d', params.previousVersion, self.version)
  end
  if params.version ~= params.previousVersion + 1 then
    mismatch('didChange from %d to %d', params.previousVersion, params.version)
  end
  local sections, selection = copy_sections(self.sections), vim.deepcopy(self.selection)
  M.apply_changeset(sections, selection, params.changeset)
  self.sections, self.selection, self.version = sections, selection, params.version
end

---Applies a wire changeset to `sections` and `selection` in place, in the five steps of §4.
---Indexes on the wire are 0-based; Lua arrays are 1-based.
---@param sections table[] {id, header?, footer?, kind?, headerMode?, rows}
---@param selection table<string, boolean>
---@param changeset table
function M.apply_changeset(sections, selection, changeset)
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
  local old_count = #sections

  -- 1. Section reloads and row updates, in old coordinates.
  for _, reload in ipairs(entries('sectionReloads')) do
    local index = int(reload.index, 'sectionReloads.index')
    local target = sections[index + 1]
    if index < 0 or index >= old_count or target == nil or target.id ~= reload.id then
      mismatch('section reload at %d does not match', index)
    end
    target.header = optional_string(reload.header, 'header')
    target.footer = optional_string(reload.footer, 'footer')
    target.kind = optional_string(reload.kind, 'kind')
    target.headerMode = optional_string(reload.headerMode, 'headerMode')
  end
  local updates = {}
  vim.list_extend(updates, entries('itemReloads'))
  vim.list_extend(updates, entries('itemReconfigures'))
  for _, update in ipairs(updates) do
    local s, start, rows = run(update)
    if s < 0 or s >= old_count or start < 0 or start + #rows > #sections[s + 1].rows then
      mismatch('row update at [%d, %d] is out of range', s, start)
    end
    local target = sections[s + 1].rows
    for offset, row in ipairs(rows) do
      if target[start + offset].id ~= row.id then
        mismatch('row update at [%d, %d] does not match %s', s, start + offset - 1, row.id)
      end
      target[start + offset] = row
    end
  end

  -- 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
  local removed = {}
  local function remove(s, row)
    if s < 0 or s >= old_count or row < 0 or row >= #sections[s + 1].rows then
      mismatch('old index path [%d, %d] is out of range', s, row)
    end
    removed[s] = removed[s] or {}
    if removed[s][row] then
      mismatch('old index path [%d, %d] is removed twice', s, row)
    end
    removed[s][row] = true
  end
  for _, delete in ipairs(entries('itemDeletes')) do
    local n = ints(delete, 3, 'itemDeletes')
    if n[3] <= 0 then
      mismatch('empty item delete')
    end
    for row = n[2], n[2] + n[3] - 1 do
      remove(n[1], row)
    end
  end
  -- Rows to place in step 4, per new section index (0-based): {row = new index, value = row}.
  local placements = {}
  for _, move in ipairs(entries('itemMoves')) do
    local n = ints(move, 5, 'itemMoves')
    if n[5] <= 0 then
      mismatch('empty item move')
    end
    for offset = 0, n[5] - 1 do
      remove(n[1], n[2] + offset)
      placements[n[3]] = placements[n[3]] or {}
      table.insert(placements[n[3]], { at = n[4] + offset, value = sections[n[1] + 1].rows[n[2] + offset + 1] })
    end
  end
  for s, rows in pairs(removed) do
    local kept = {}
    for i, row in ipairs(sections[s + 1].rows) do
      if not rows[i - 1] then
        kept[#kept + 1] = row
      end
    end
    sections[s + 1].rows = kept
  end
  local gone = {}
  for _, delete in ipairs(entries('sectionDeletes')) do
    local n = ints(delete, 2, 'sectionDeletes')
    if n[1] < 0 or n[2] <= 0 or n[1] + n[2] > old_count then
      mismatch('section delete [%d, %d] is out of range', n[1], n[2])
    end
    for index = n[1], n[1] + n[2] - 1 do
      if gone[index] then
        mismatch('section %d is removed twice', index)
      end
      gone[index] = true
    end
  end
  local arriving = {}
  for _, move in ipairs(entries('sectionMoves')) do
    local n = ints(move, 2, 'sectionMoves')
    if n[1] < 0 or n[1] >= old_count or gone[n[1]] then
      mismatch('section move [%d, %d] is out of range or removes a section twice', n[1], n[2])
    end
    gone[n[1]] = true
    arriving[#arriving + 1] = { at = n[2], value = sections[n[1] + 1] }
  end

  -- 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
  for _, insert in ipairs(entries('sectionInserts')) do
    if type(insert) ~= 'table' or insert.section == nil then
      mismatch('section insert without section')
    end
    arriving[#arriving + 1] = { at = int(insert.index, 'sectionInserts.index'), value = section(insert.section) }
  end
  local remaining = {}
  for i = 1, old_count do
    if not gone[i - 1] then
      remaining[#remaining + 1] = sections[i]
    end
  end
  local new_sections = interleave(arriving, remaining, function(at)
    mismatch('new section index %d is out of range or repeated', at)
  end)
  for i = 1, math.max(#sections, #new_sections) do
    sections[i] = new_sections[i]
  end

  -- 4. Inserted and moved rows at their new index paths, ascending.
  for _, insert in ipairs(entries('itemInserts')) do
    local s, start, rows = run(insert)
    placements[s] = placements[s] or {}
    for offset, row in ipairs(rows) do
      table.insert(placements[s], { at = start + offset - 1, value = row })
    end
  end
  for s, placed in pairs(placements) do
    if s < 0 or s >= #sections then
      mismatch('new section index %d is out of range', s)
    end
    sections[s + 1].rows = interleave(placed, sections[s + 1].rows, function(at)
      mismatch('new index path [%d, %d] is out of range or repeated', s, at)
    end)
  end

  -- 5. Selection: deselected ids leave, then selected ids join.
  for _, id in ipairs(entries('deselected')) do
    selection[str(id, 'deselected')] = nil
  end
  for _, id in ipairs(entries('selected')) do
    selection[str(id, 'selected')] = true
  end
  -- `expanded` / `collapsed` only report state the rows already carry; check they are ids.
  for _, key in ipairs({ 'expanded', 'collapsed' }) do
    for _, id in ipairs(entries(key)) do
      str(id, key)
    end
  end
end

---The mirror as a wire snapshot, selection in index-path order (as the daemon sends it:
---selected items are always visible rows).
---@return table {sections, selection}
function Mirror:snapshot()
  local sections, selection = {}, {}
  for i, s in ipairs(self.sections) do
    sections[i] = { id = s.id, header = s.header, footer = s.footer, kind = s.kind, headerMode = s.headerMode, rows = s.rows }
    for _, row in ipairs(s.rows) do
      if self.selection[row.id] then selection[#selection + 1] = row.id end
    end
  end
  return { sections = sections, selection = selection }
end

---The row of an item id and its section index (1-based), or nil when it is not visible.
---@param id string
---@return table|nil row
---@return integer|nil section
function Mirror:row(id)
  for i, s in ipairs(self.sections) do
    for _, row in ipairs(s.rows) do
      if row.id == id then
        return row, i
      end
    end
  end
  return nil
end

---The number of visible rows.
---@return integer
function Mirror:row_count()
  local count = 0
  for _, s in ipairs(self.sections) do
    count = count + #s.rows
  end
  return count
end

return M
