-- The shape of a list without its rows: sections with row counts, and where each row and section sits in the buffer.
-- Buffer lines: 1 the title; per section its header, one line per visible row, its footer (when it has one).
-- Rows are numbered 0-based across all sections (flattened, as query/window counts them).
local M = {}

local Layout = {}
Layout.__index = Layout

---A layout from sections `{id, header?, footer?, kind?, headerMode?, count}` (in order); computes the prefix sums.
---@param sections table[]
---@return table layout
function M.new(sections)
  local self = setmetatable({ sections = sections }, Layout)
  self:index()
  return self
end

---Recomputes the flattened first row and the first buffer line of each section (O(sections)).
function Layout:index()
  local first_row, first_line, by_id = {}, {}, {}
  local row, line = 0, 2
  for i, s in ipairs(self.sections) do
    first_row[i], first_line[i], by_id[s.id] = row, line, i
    row = row + s.count
    line = line + 1 + s.count + (s.footer and 1 or 0)
  end
  self.first_row, self.first_line, self.by_id = first_row, first_line, by_id
  self.total_rows, self.line_count = row, line - 1
end

-- The last section index whose value in `starts` is ≤ `value` (binary search; sections keep order).
local function find(starts, value)
  local lo, hi = 1, #starts
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if starts[mid] <= value then
      lo = mid
    else
      hi = mid - 1
    end
  end
  return lo
end

---The section (1-based) and row (0-based) of flattened row `flat`, or nil when out of range.
---@param flat integer
---@return integer|nil section
---@return integer|nil row
function Layout:locate(flat)
  if flat < 0 or flat >= self.total_rows then
    return nil
  end
  -- Empty sections share a first row with the next: take the last section starting at or before
  -- `flat` that has rows there.
  local i = find(self.first_row, flat)
  while i > 1 and self.sections[i].count == 0 do
    i = i - 1
  end
  while flat >= self.first_row[i] + self.sections[i].count do
    i = i + 1
  end
  return i, flat - self.first_row[i]
end

---The buffer line (1-based) of flattened row `flat`.
---@param flat integer
---@return integer|nil
function Layout:line_of_row(flat)
  local s, r = self:locate(flat)
  if not s then
    return nil
  end
  return self.first_line[s] + 1 + r
end

---What buffer line `lnum` shows: 'title', or 'header'/'footer' and the section index, or 'row',
---the section index and the flattened row.
---@param lnum integer
---@return string|nil kind
---@return integer|nil section
---@return integer|nil flat
function Layout:at_line(lnum)
  if lnum == 1 then
    return 'title'
  end
  if lnum < 1 or lnum > self.line_count or #self.sections == 0 then
    return nil
  end
  local s = find(self.first_line, lnum)
  local offset = lnum - self.first_line[s]
  local section = self.sections[s]
  if offset == 0 then
    return 'header', s
  elseif offset <= section.count then
    return 'row', s, self.first_row[s] + offset - 1
  end
  return 'footer', s
end

---The rows shown on buffer lines `first`…`last` (inclusive), as a flattened range [lo, hi) (maybe empty).
---@return integer lo
---@return integer hi
function Layout:rows_between(first, last)
  local lo, hi
  for lnum = math.max(1, first), math.min(last, self.line_count) do
    local kind, _, flat = self:at_line(lnum)
    if kind == 'row' then
      lo = lo or flat
      hi = flat + 1
    end
  end
  return lo or 0, hi or 0
end

return M
