-- The client-side copy of one list, every row of it: the changeset decoder listd.window uses (listd.changemap),
-- over a layout whose rows are all held (Protocol/README.md §4).
local changemap = require('listd.changemap')
local layout = require('listd.layout')

local M = {}

local Mirror = {}
Mirror.__index = Mirror

local mismatch, is_int, str, check_rows = changemap.mismatch, changemap.is_int, changemap.str, changemap.check_rows

local function section(value)
  if type(value) ~= 'table' or type(value.id) ~= 'string' or type(value.rows) ~= 'table' then
    mismatch('section without id or rows: %s', vim.inspect(value))
  end
  return changemap.section(value, { rows = check_rows(value.rows) })
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
M.try = changemap.try

---Applies one `list/didChange` params object `{list, version, previousVersion, changeset}`.
---Raises a mismatch (changing nothing) if it is for another list, skips or repeats a version,
---or does not fit the rows; use M.try to catch it.
---@param params table
function Mirror:apply_did_change(params)
  changemap.check_did_change(params, self.list, self.version, 'mirror')
  if params.version ~= params.previousVersion + 1 then
    mismatch('didChange from %d to %d', params.previousVersion, params.version)
  end
  M.apply_changeset(self.sections, self.selection, params.changeset)
  self.version = params.version
end

---Applies a wire changeset to `sections` and `selection` in place, in the five steps of §4; a changeset
---that does not fit raises a mismatch and changes neither. Indexes on the wire are 0-based; Lua arrays are 1-based.
---@param sections table[] {id, header?, footer?, kind?, headerMode?, rows}
---@param selection table<string, boolean>
---@param changeset table
function M.apply_changeset(sections, selection, changeset)
  if type(changeset) == 'table' and changeset.enter ~= nil then
    mismatch("unknown changeset member 'enter'") -- a windowed subscriber's
  end
  local counted, rows, flat = {}, {}, 0 -- rows: flattened row (0-based) → row
  for i, s in ipairs(sections) do
    counted[i] = { id = s.id, header = s.header, footer = s.footer, kind = s.kind, headerMode = s.headerMode, count = #s.rows }
    for _, row in ipairs(s.rows) do
      rows[flat], flat = row, flat + 1
    end
  end
  local map = changemap.compute(layout.new(counted), changeset, rows)
  local carried = changemap.carry(map, rows)
  local new = {}
  for i, s in ipairs(map.new.sections) do
    local first, list = map.new.first_row[i], {}
    for r = 1, s.count do
      list[r] = carried[first + r - 1] or mismatch('the changeset does not carry the row at [%d, %d]', i - 1, r - 1)
    end
    new[i] = { id = s.id, header = s.header, footer = s.footer, kind = s.kind, headerMode = s.headerMode, rows = list }
  end
  for i = 1, math.max(#sections, #new) do
    sections[i] = new[i]
  end
  for _, id in ipairs(map.deselected) do
    selection[id] = nil
  end
  for _, id in ipairs(map.selected) do
    selection[id] = true
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
