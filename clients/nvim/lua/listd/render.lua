-- Rows → buffer lines: title, section headers and footers, outline rows with ▸/▾, marks and accessories.
local M = {}

-- A string field of a row, or nil (JSON null decodes to vim.NIL).
local function text(value)
  if type(value) == 'string' then
    return value
  end
  return nil
end

---A row's label: its text, or `#id` when it has none (as listctl shows it).
---@param row table
---@return string
function M.label(row)
  return text(row.text) or ('#' .. row.id)
end

-- Single-line text for a buffer line (newlines would split it).
local function flat(s)
  return (s:gsub('[\r\n]+', ' '))
end

---A progress bar of 10 cells and the percentage: `██████░░░░ 64%`.
---@param value number 0…1
---@return string
function M.progress(value)
  value = math.max(0, math.min(1, tonumber(value) or 0))
  local filled = math.floor(value * 10 + 0.5)
  return string.rep('█', filled) .. string.rep('░', 10 - filled) .. ' ' .. math.floor(value * 100 + 0.5) .. '%'
end

---The glyph of an accessory and its highlight group, or nil for those the row already shows.
---@param accessory table {type, …}
---@param selected boolean whether the row is selected (for `multiselect`)
---@return string|nil text
---@return string group
function M.accessory(accessory, selected)
  local kind = accessory.type
  if kind == 'disclosureIndicator' then
    return '›', 'ListdAccessory'
  elseif kind == 'checkmark' then
    return '✓', 'ListdCheckmark'
  elseif kind == 'detail' then
    return 'ⓘ', 'ListdAccessory'
  elseif kind == 'reorder' then
    return '≡', 'ListdAccessory'
  elseif kind == 'delete' then
    return '⊖', 'ListdDestructive'
  elseif kind == 'multiselect' then
    return selected and '☑' or '☐', 'ListdAccessory'
  elseif kind == 'outlineDisclosure' then
    return nil, '' -- the ▸/▾ in front of the text already shows it
  elseif kind == 'label' then
    return flat(text(accessory.text) or ''), 'ListdLabel'
  elseif kind == 'badge' then
    return '[' .. flat(text(accessory.text) or '') .. ']', 'ListdBadge'
  elseif kind == 'image' or kind == 'custom' then
    return '<' .. flat(text(accessory.name) or '') .. '>', 'ListdAccessory'
  elseif kind == 'progress' then
    return M.progress(accessory.value), 'ListdProgress'
  elseif kind == 'activityIndicator' then
    return '⟳', 'ListdAccessory'
  elseif kind == 'toggle' then
    if accessory.isOn == true then
      return '[on]', 'ListdToggleOn'
    end
    return '[off]', 'ListdToggleOff'
  elseif kind == 'popUpMenu' then
    return '⋯', 'ListdAccessory'
  end
  return tostring(kind), 'ListdAccessory'
end

---UIKit's system accessories, each with its place on its edge, leading to trailing (Protocol/README.md,
---"Accessory order"); any other type is a custom view, shown in array order nearest the content.
M.accessory_order = {
  delete = 1,
  multiselect = 2,
  label = 3,
  detail = 4,
  checkmark = 5,
  popUpMenu = 6,
  outlineDisclosure = 7,
  reorder = 8,
  disclosureIndicator = 9,
}

---The accessories in the order a row shows them, whatever their order in the array: the leading edge
---(system accessories by `accessory_order`, then custom ones), then the trailing edge (custom ones,
---then system accessories by `accessory_order`); custom ones keep their array order.
---@param accessories table[]|nil
---@return table[]
function M.ordered_accessories(accessories)
  local entries = {}
  for i, accessory in ipairs(type(accessories) == 'table' and accessories or {}) do
    local kind = accessory.type
    local placement = accessory.placement
    if placement ~= 'leading' and placement ~= 'trailing' then
      placement = (kind == 'delete' or kind == 'multiselect') and 'leading' or 'trailing'
    end
    local rank = M.accessory_order[kind] or (placement == 'leading' and 10 or 0)
    entries[#entries + 1] = { edge = placement == 'leading' and 0 or 1, rank = rank, index = i, accessory = accessory }
  end
  table.sort(entries, function(a, b)
    if a.edge ~= b.edge then
      return a.edge < b.edge
    elseif a.rank ~= b.rank then
      return a.rank < b.rank
    end
    return a.index < b.index
  end)
  return vim.tbl_map(function(entry)
    return entry.accessory
  end, entries)
end

-- Builds lines with highlight spans; columns are byte offsets, as extmarks want.
local Builder = {}
Builder.__index = Builder

local function builder()
  return setmetatable({ lines = {}, highlights = {}, keys = {}, rows = {}, line_of = {} }, Builder)
end

-- Starts a line keyed `key` ('title', 'h:SECTION', 'f:SECTION' or 'i:ITEM').
function Builder:line(key)
  self.lines[#self.lines + 1] = ''
  self.keys[#self.lines] = key
  self.line_of[key] = #self.lines
end

-- Appends `s` to the current line, highlighted with `group` if given.
function Builder:put(s, group)
  local n = #self.lines
  local start = #self.lines[n]
  self.lines[n] = self.lines[n] .. s
  if group and #s > 0 then
    self.highlights[#self.highlights + 1] = { n - 1, start, start + #s, group }
  end
end

-- The title of the column a field names (its id), or the field itself.
local function column_title(field, columns)
  for _, column in ipairs(type(columns) == 'table' and columns or {}) do
    if column.id == field or 'cells.' .. column.id == field then
      return text(column.title) or field
    end
  end
  return field
end

---The arrow of a sort key: ▼ descending, ▲ ascending.
function M.arrow(key)
  return key.descending and '▼' or '▲'
end

---What a live view made by `:Listd sort`/`:Listd filter` does, in words: `sorted by PID ▲`,
---`filter 'nv'` (nil when it does neither).
---@param derived table {source, title?, sort?, filter?}
---@param columns table[]|nil the table's columns (for the sort column's title)
---@return string[]
function M.derived_words(derived, columns)
  local words = {}
  local key = type(derived.sort) == 'table' and derived.sort[1] or nil
  if key then
    words[#words + 1] = 'sorted by ' .. flat(column_title(key.field, columns)) .. ' ' .. M.arrow(key)
  end
  local query = type(derived.filter) == 'table' and text(derived.filter.query) or nil
  if query then
    words[#words + 1] = "filter '" .. flat(query) .. "'"
  end
  return words
end

---The title line: `contacts 'Contacts' v3 · plain · selection multiple`, as listctl prints it. A live view
---this Neovim made shows its source's id and title, then its sort and filter.
local function title(b, mirror, info, status, derived)
  b:line('title')
  local list = derived and derived.source or mirror and mirror.list or info.list or '?'
  local shown = derived and text(derived.title) or not derived and text(info.title) or list
  b:put(list .. " '" .. flat(shown) .. "'", 'ListdTitle')
  if mirror then
    b:put(' v' .. mirror.version, 'ListdVersion')
  end
  for _, words in ipairs(derived and M.derived_words(derived, info.columns) or {}) do
    b:put(' · ' .. words, 'ListdInfo')
  end
  b:put(' · ' .. (text(info.appearance) or 'plain') .. ' · selection ' .. (text(info.selectionMode) or 'single'), 'ListdInfo')
  if status then
    b:put(' · ' .. status, 'ListdStale')
  end
end

-- Whether a section's header text shows: only as a supplementary view (Presentation: `none` shows no
-- header, `firstItemInSection` draws its first row as the header). The line stays, as for a section
-- without header text, so every section keeps its header line.
local function shows_header(section)
  return section.header ~= nil and (section.headerMode == nil or section.headerMode == 'supplementary')
end

local function header_line(b, section, derived, columns)
  b:line('h:' .. section.id)
  if shows_header(section) then
    b:put('§ ' .. flat(section.header), 'ListdHeader')
  elseif derived then
    -- A view's one section (`items`) says what it holds rather than its id.
    local words = M.derived_words(derived, columns)
    local rows = (type(derived.filter) == 'table' and text(derived.filter.query)) and 'rows of ' or 'all rows of '
    b:put('§ ' .. rows .. derived.source .. (#words > 0 and (', ' .. table.concat(words, ', ')) or ''), 'ListdHeader')
  else
    b:put('§ ' .. section.id, 'ListdSectionId')
  end
end

local function footer_line(b, section)
  b:line('f:' .. section.id)
  b:put('  ⌊ ' .. flat(section.footer), 'ListdFooter')
end

-- The text of a cell value: strings as they are, numbers as listctl prints them, Booleans ✓/✗, null empty.
function M.cell_text(value)
  if type(value) == 'string' then
    return flat(value)
  elseif type(value) == 'number' then
    if value == math.floor(value) and math.abs(value) < 1e15 then
      return string.format('%d', value)
    end
    return (string.format('%.6g', value))
  elseif value == true then
    return '✓'
  elseif value == false then
    return '✗'
  end
  return ''
end

-- The width of a column in characters: its width hint, else 12.
function M.column_width(column)
  local w = tonumber(column.width)
  return (w and w >= 1) and math.floor(w) or 12
end

---`s` fitted to `width` display cells: cut with `…` when longer, padded by `alignment` when shorter.
---@param s string
---@param width integer
---@param alignment string|nil 'leading' (default), 'center' or 'trailing'
---@return string
function M.fit(s, width, alignment)
  local ascii = not s:find('[\128-\255]')
  local n = ascii and #s or vim.fn.strdisplaywidth(s)
  if n > width and ascii then
    return s:sub(1, width - 1) .. '…'
  elseif n > width then
    local chars = vim.fn.strchars(s)
    local cut = s
    while chars > 0 and vim.fn.strdisplaywidth(cut) > width - 1 do
      chars = chars - 1
      cut = vim.fn.strcharpart(s, 0, chars)
    end
    return cut .. '…' .. string.rep(' ', width - 1 - vim.fn.strdisplaywidth(cut))
  end
  local pad = width - n
  if alignment == 'trailing' then
    return string.rep(' ', pad) .. s
  elseif alignment == 'center' then
    local left = math.floor(pad / 2)
    return string.rep(' ', left) .. s .. string.rep(' ', pad - left)
  end
  return s .. string.rep(' ', pad)
end

---The columns as a table shows them under `sort` (a live view's): the sort column widened, when its title
---leaves no room, to hold the title, a space and the arrow, so every sorted title reads `PID ▲`, `OK ▲`.
---@param columns table[]
---@param sort table|nil
---@return table[]
function M.sorted_columns(columns, sort)
  local key = type(sort) == 'table' and sort[1] or nil
  if not key then
    return columns
  end
  local out = {}
  for i, column in ipairs(columns) do
    out[i] = column
    if key.field == column.id or key.field == 'cells.' .. column.id then
      local needed = vim.fn.strdisplaywidth(flat(text(column.title) or column.id)) + 2
      if M.column_width(column) < needed then
        out[i] = vim.tbl_extend('force', column, { width = needed })
      end
    end
  end
  return out
end

---The header of a table: the column titles fitted to their widths, as a row's cells are (one space between);
---the sort column's title ends with ▲ or ▼.
---@param columns table[] {id, title, alignment?, width?}
---@param sort table|nil {{field, descending}} (a live view's sort)
---@return string
function M.columns_header(columns, sort)
  local key = type(sort) == 'table' and sort[1] or nil
  local parts = {}
  for i, column in ipairs(columns) do
    local width = M.column_width(column)
    local title = flat(text(column.title) or column.id)
    if key and (key.field == column.id or key.field == 'cells.' .. column.id) and width >= 2 then
      -- The arrow after the title, with a space when it fits, else in its last cell.
      local room = width - vim.fn.strdisplaywidth(title)
      local arrow = M.arrow(key)
      parts[i] = room >= 2 and M.fit(title .. ' ' .. arrow, width, column.alignment)
        or M.fit(title, width - 1, column.alignment) .. arrow
    else
      parts[i] = M.fit(title, width, column.alignment)
    end
  end
  return (string.rep(' ', 4) .. table.concat(parts, ' ')):gsub('%s+$', '')
end

-- A table row's cells, aligned to the columns.
local function cells(b, row, columns, group)
  local values = type(row.cells) == 'table' and row.cells or {}
  for i, column in ipairs(columns) do
    if i > 1 then
      b:put(' ')
    end
    local s = M.fit(M.cell_text(values[column.id]), M.column_width(column), column.alignment)
    if i == #columns then
      s = s:gsub('%s+$', '')
    end
    b:put(s, group)
  end
end

local function row_line(b, row, selected, columns)
  b:line('i:' .. row.id)
  b.rows[#b.lines] = row
  b:put(selected and '●' or ' ', selected and 'ListdSelectedMark' or nil)
  b:put(' ' .. string.rep('  ', tonumber(row.level) or 0))
  if row.hasChildren == true then
    b:put(row.expanded == true and '▾ ' or '▸ ', 'ListdDisclosure')
  else
    b:put('  ')
  end
  local group = selected and 'ListdSelected' or (row.selectable == false and 'ListdDisabled' or 'ListdText')
  if type(columns) == 'table' and #columns > 0 then
    return cells(b, row, columns, group)
  end
  b:put(flat(M.label(row)), group)
  local secondary = text(row.secondaryText)
  if secondary then
    b:put(' · ' .. flat(secondary), 'ListdSecondary')
  end
  local first = true
  for _, accessory in ipairs(M.ordered_accessories(row.accessories)) do
    local glyph, glyph_group = M.accessory(accessory, selected)
    if glyph then
      b:put(first and '  ' or ' ')
      b:put(glyph, glyph_group)
      first = false
    end
  end
end

---Renders a mirror as buffer lines.
---@param mirror table|nil the list's mirror (nil before the first snapshot)
---@param info table list info {list, title, appearance, selectionMode}
---@param status string|nil shown on the title line (e.g. 'disconnected')
---@return table {lines, highlights = {{line0, col, end_col, group}}, keys = {[lnum] = key}, rows = {[lnum] = row}, line_of = {[key] = lnum}}
function M.render(mirror, info, status)
  local b = builder()
  title(b, mirror, info or {}, status)
  if not mirror then
    return b
  end
  for _, section in ipairs(mirror.sections) do
    header_line(b, section)
    for _, row in ipairs(section.rows) do
      row_line(b, row, mirror.selection[row.id] == true)
    end
    if section.footer then
      footer_line(b, section)
    end
  end
  return b
end

-- One line built alone: its text and highlights {col, end_col, group}.
local function one(fn, ...)
  local b = builder()
  fn(b, ...)
  local spans = {}
  for _, h in ipairs(b.highlights) do
    spans[#spans + 1] = { h[2], h[3], h[4] }
  end
  return b.lines[1], spans
end

---The title line of a list at `version` (nil before its first snapshot).
---@return string text
---@return table spans {{col, end_col, group}}
---@param derived table|nil a live view's {source, title?, sort?, filter?} (see M.derived_words)
function M.title_line(list, version, info, status, derived)
  return one(title, version and { list = list, version = version } or nil, info or { list = list }, status, derived)
end

---The line of a row; with `columns` (a table's), its cells aligned to them instead of its text.
---@return string text
---@return table spans
function M.row_line(row, selected, columns)
  return one(row_line, row, selected, columns)
end

---The lines an empty list shows for its empty state: its title (the search variant's default
---`No Results for “query”`) and description.
---@param state table {kind?, query?, title?, description?}
---@return string[]
function M.empty_lines(state)
  local search = state.kind == 'search'
  local title = text(state.title) or (search and ('No Results for “' .. (text(state.query) or '') .. '”')) or ''
  local description = text(state.description) or (search and 'Check the spelling or try a new search.') or nil
  local lines = { flat(title) }
  if description then
    lines[#lines + 1] = flat(description)
  end
  return lines
end

---The header line of a section `{id, header?, headerMode?}`; in a live view (`derived`), a section without a header
---says what the view holds.
function M.header_line(section, derived, columns)
  return one(header_line, section, derived, columns)
end

---The footer line of a section `{id, footer}`.
function M.footer_line(section)
  return one(footer_line, section)
end

return M
