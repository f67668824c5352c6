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

---The title line: `contacts 'Contacts' v3 · plain · selection multiple`, as listctl prints it.
local function title(b, mirror, info, status)
  b:line('title')
  local list = mirror and mirror.list or info.list or '?'
  b:put(list .. " '" .. flat(text(info.title) or list) .. "'", 'ListdTitle')
  if mirror then
    b:put(' v' .. mirror.version, 'ListdVersion')
  end
  b:put(' · ' .. (text(info.appearance) or 'plain') .. ' · selection ' .. (text(info.selectionMode) or 'single'), 'ListdInfo')
  if status then
    b:put(' · ' .. status, 'ListdStale')
  end
end

local function header_line(b, section)
  b:line('h:' .. section.id)
  if section.header then
    b:put('§ ' .. flat(section.header), 'ListdHeader')
  else
    b:put('§ ' .. section.id, 'ListdSectionId')
  end
end

local function footer_line(b, section)
  b:line('f:' .. section.id)
  b:put('  ⌊ ' .. flat(section.footer), 'ListdFooter')
end

local function row_line(b, row, selected)
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
  b:put(flat(M.label(row)), group)
  local secondary = text(row.secondaryText)
  if secondary then
    b:put(' · ' .. flat(secondary), 'ListdSecondary')
  end
  local first = true
  for _, accessory in ipairs(type(row.accessories) == 'table' and row.accessories or {}) do
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
function M.title_line(list, version, info, status)
  return one(title, version and { list = list, version = version } or nil, info or { list = list }, status)
end

---The line of a row.
---@return string text
---@return table spans
function M.row_line(row, selected)
  return one(row_line, row, selected)
end

---The header line of a section `{id, header?}`.
function M.header_line(section)
  return one(header_line, section)
end

---The footer line of a section `{id, footer}`.
function M.footer_line(section)
  return one(footer_line, section)
end

return M
