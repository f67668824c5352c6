-- What a list buffer holds of its list: per-section row counts, the rows around the windows (by flattened
-- index), the selection and the version; kept exact by each didChange, rows fetched with query/window.
local changemap = require('listd.changemap')
local layout = require('listd.layout')

local M = {}

local Model = {}
Model.__index = Model

local mismatch, is_int, str = changemap.mismatch, changemap.is_int, changemap.str

---A model of `list` at `version` from a query/sections answer and a query/selection answer at that version.
---@param list string
---@param version integer
---@param sections_answer table {sections: [{id, header?, footer?, kind?, headerMode?, rows}]}
---@param selection_answer table {items: [{id} or id]}
---@return table model {list, version, layout, rows = {[flat] = row}, selection = {[id] = true}, window = {offset, limit} of a windowed subscription or nil}
function M.new(list, version, sections_answer, selection_answer)
  if type(sections_answer) ~= 'table' or type(sections_answer.sections) ~= 'table' then
    mismatch('query/sections answer without sections')
  end
  if type(selection_answer) ~= 'table' or type(selection_answer.items) ~= 'table' then
    mismatch('query/selection answer without items')
  end
  local sections = {}
  for i, s in ipairs(sections_answer.sections) do
    if type(s) ~= 'table' or type(s.id) ~= 'string' or not is_int(s.rows) then
      mismatch('section without id or rows: %s', vim.inspect(s))
    end
    sections[i] = changemap.section(s, { count = s.rows })
  end
  local selection = {}
  for _, item in ipairs(selection_answer.items) do
    selection[str(type(item) == 'table' and item.id or item, 'selection')] = true
  end
  return setmetatable({ list = list, version = version, layout = layout.new(sections), rows = {}, selection = selection }, Model)
end

---Runs `fn(...)` and returns true and its result, or false and the mismatch message (other errors propagate).
M.try = changemap.try

---Applies one `list/didChange` params object; returns its listd.changemap. Raises a mismatch (changing
---nothing) if it is for another list, skips or repeats a version, or does not fit the counts.
---@param params table
---@return table map
function Model:apply_did_change(params)
  changemap.check_did_change(params, self.list, self.version, 'model')
  local map = changemap.compute(self.layout, params.changeset, self.rows)
  -- Every payload the change carries is kept for now; the buffer keeps those near its windows.
  local rows = changemap.carry(map, self.rows)
  -- A windowed subscription: what we hold outside the window is stale.
  if self.window then
    local lo, hi = self.window.offset, self.window.offset + self.window.limit
    for flat in pairs(rows) do
      if flat < lo or flat >= hi then
        rows[flat] = nil
      end
    end
  end
  for _, id in ipairs(map.deselected) do
    self.selection[id] = nil
  end
  for _, id in ipairs(map.selected) do
    self.selection[id] = true
  end
  self.layout, self.rows, self.version, self.ids = map.new, rows, params.version, nil
  return map
end

---Stores the rows of a query/window answer at the model's version `{offset, totalRows, rows}`; `keep(flat)`
---says which to keep. Raises a mismatch when the answer does not fit the counts.
---@param answer table
---@param keep fun(flat: integer): boolean
---@return integer stored
function Model:install(answer, keep)
  if answer.totalRows ~= self.layout.total_rows then
    mismatch('query/window answers %s rows, the model has %d', tostring(answer.totalRows), self.layout.total_rows)
  end
  local stored = 0
  for i, row in ipairs(type(answer.rows) == 'table' and answer.rows or {}) do
    local flat = answer.offset + i - 1
    if type(row) ~= 'table' or type(row.id) ~= 'string' then
      mismatch('row without id: %s', vim.inspect(row))
    end
    if keep(flat) then
      row.section, row.indexPath = nil, nil
      self.rows[flat] = row
      stored = stored + 1
    end
  end
  self.ids = nil
  return stored
end

---Moves a windowed subscription's window to [offset, offset + limit) with a list/setWindow answer
---`{version, window, sections, selection}` at the model's version: its rows replace those held.
---Raises a mismatch when the answer is of another version or its counts differ.
---@param answer table
---@param offset integer
---@param limit integer
function Model:move_window(answer, offset, limit)
  if answer.version ~= self.version or type(answer.sections) ~= 'table' or type(answer.window) ~= 'table' then
    mismatch('list/setWindow answered version %s, the model is at %d', tostring(answer.version), self.version)
  end
  local sections = self.layout.sections
  if #answer.sections ~= #sections then
    mismatch('list/setWindow answered %d sections, the model has %d', #answer.sections, #sections)
  end
  for i, s in ipairs(answer.sections) do
    if s.id ~= sections[i].id or s.rows ~= sections[i].count then
      mismatch('list/setWindow answered section %s with %s rows', tostring(s.id), tostring(s.rows))
    end
  end
  local selection = {}
  for _, id in ipairs(type(answer.selection) == 'table' and answer.selection or {}) do
    selection[str(id, 'selection')] = true
  end
  local function inside(flat)
    return flat >= offset and flat < offset + limit
  end
  self:prune(inside)
  self:install(answer.window, inside)
  self.window, self.selection = { offset = offset, limit = limit }, selection
end

---Drops the cached rows `keep(flat)` refuses; returns the flattened rows dropped.
---@param keep fun(flat: integer): boolean
---@return integer[]
function Model:prune(keep)
  local dropped = {}
  for flat in pairs(self.rows) do
    if not keep(flat) then
      dropped[#dropped + 1] = flat
    end
  end
  for _, flat in ipairs(dropped) do
    self.rows[flat] = nil
  end
  if #dropped > 0 then
    self.ids = nil
  end
  return dropped
end

---The flattened row of a cached item, or nil.
---@param id string
---@return integer|nil
function Model:flat_of(id)
  if not self.ids then
    self.ids = {}
    for flat, row in pairs(self.rows) do
      self.ids[row.id] = flat
    end
  end
  return self.ids[id]
end

---The cached row of an item id and its section index (1-based), or nil.
---@param id string
---@return table|nil row
---@return integer|nil section
function Model:row(id)
  local flat = self:flat_of(id)
  if not flat then
    return nil
  end
  return self.rows[flat], (self.layout:locate(flat))
end

---The cached row at flattened index `flat`, or nil.
function Model:row_at(flat)
  return self.rows[flat]
end

---The number of visible rows.
---@return integer
function Model:row_count()
  return self.layout.total_rows
end

---Whether every row is cached (then :snapshot() answers).
---@return boolean
function Model:whole()
  for flat = 0, self.layout.total_rows - 1 do
    if not self.rows[flat] then
      return false
    end
  end
  return true
end

---The model as a wire snapshot `{sections, selection}` (selection in index-path order), when every row is
---cached (a list that fits around its windows); raises otherwise.
---@return table
function Model:snapshot()
  assert(self:whole(), 'snapshot of a list whose rows are not all cached')
  local sections, selection = {}, {}
  for i, s in ipairs(self.layout.sections) do
    local rows = {}
    for r = 0, s.count - 1 do
      local row = self.rows[self.layout.first_row[i] + r]
      rows[#rows + 1] = row
      if self.selection[row.id] then
        selection[#selection + 1] = row.id
      end
    end
    sections[i] = { id = s.id, header = s.header, footer = s.footer, kind = s.kind, headerMode = s.headerMode, rows = rows }
  end
  return { sections = sections, selection = selection }
end

return M
