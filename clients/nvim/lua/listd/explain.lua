-- A `list/explain {list, item}` answer in words: as listd-tui's ExplainWords writes it (clients/wording).
local words = require('listd.words')

local M = {}

local function str(value)
  return type(value) == 'string' and value or nil
end

---`v12 · list/edit by session 3 (listctl)`; `v5 · demo` for the daemon's own changes.
---@param version number
---@param source table|nil
---@return string
function M.header(version, source)
  source = type(source) == 'table' and source or {}
  local text = 'v' .. string.format('%d', version) .. ' · ' .. (str(source.method) or '?')
  local by = source.by
  if type(by) == 'table' and type(by.session) == 'number' then
    text = text .. ' by session ' .. string.format('%d', by.session)
    if str(by.name) then
      text = text .. ' (' .. by.name .. ')'
    end
  end
  return text
end

-- `between a and c`, `to the start, before c`, `to the end, after a`, or nil.
local function neighbours(cause)
  local after, before = str(cause.after), str(cause.before)
  if after and before then
    return 'between ' .. after .. ' and ' .. before
  elseif before then
    return 'to the start, before ' .. before
  elseif after then
    return 'to the end, after ' .. after
  end
  return nil
end

local function requested(change, mode)
  if change == 'itemReloads' or change == 'sectionReloads' then
    return 'reload requested'
  elseif change == 'itemReconfigures' then
    return 'reconfigure requested'
  elseif change == 'selected' or change == 'expanded' or change == 'collapsed' then
    return change
  elseif change == 'selectionMode' then
    return 'selection mode set to ' .. (str(mode) or '?')
  end
  return 'requested'
end

---The reason in words, with the ids it names. Section changes start with `section ID`.
---@param cause table
---@return string
function M.phrase(cause, expanded)
  local change, reason = str(cause.change) or '', str(cause.reason) or '?'
  local parent, section = str(cause.parent), str(cause.section) or '?'
  local text
  if reason == 'added' or reason == 'removed' or reason == 'changed' then
    text = reason
  elseif reason == 'hidden' then
    text = 'hidden under collapsed ' .. (parent or '?')
  elseif reason == 'revealed' then
    -- Revealed by the ancestor's expansion when the change expanded it, else by a move.
    if parent and expanded and expanded[parent] then
      text = 'revealed: ' .. parent .. ' was expanded'
    else
      text = 'revealed: moved out from under collapsed ' .. (parent or '?')
    end
  elseif reason == 'reparented' then
    text = (parent and ('moved under ' .. parent) or 'moved to the top level')
      .. (change == 'itemDeletes' and ', now hidden' or ', was hidden')
  elseif reason == 'fromDeletedSection' then
    text = 'moved out of deleted section ' .. section
  elseif reason == 'toInsertedSection' then
    text = 'moved to new section ' .. section
  elseif reason == 'reloadedAndMoved' then
    text = 'reloaded and moved'
  elseif reason == 'reordered' then
    local where = neighbours(cause)
    text = where and ('moved ' .. where) or 'moved'
  elseif reason == 'changedSection' then
    local where = neighbours(cause)
    text = 'moved from section ' .. (str(cause.fromSection) or '?') .. (where and (', ' .. where) or '')
  elseif reason == 'requested' then
    text = requested(change, cause.mode)
  elseif reason == 'unselectable' then
    text = 'no longer selectable'
  elseif reason == 'selectionMode' then
    text = 'the selection mode changed'
  else
    text = reason
  end
  if change == 'deselected' and reason ~= 'deselected' then
    return 'deselected: ' .. text
  end
  if change:sub(1, 7) == 'section' then
    return 'section ' .. section .. ' ' .. text
  end
  return text
end

---A cause: its phrase and edit on one line, then one indented line per changed field.
---@param cause table
---@return string[]
function M.cause_lines(cause, expanded)
  local line = M.phrase(cause, expanded)
  local edit = cause.edit
  if type(edit) == 'table' and type(edit.index) == 'number' then
    line = line .. ' (edit ' .. string.format('%d', edit.index) .. ': ' .. (str(edit.op) or '?') .. ')'
  end
  local lines = { line }
  for _, change in ipairs(type(cause.fields) == 'table' and cause.fields or {}) do
    local field = str(change.field) or '?'
    lines[#lines + 1] = '  ' .. field .. ': ' .. words.value(change.old, field) .. ' → ' .. words.value(change.new, field)
  end
  return lines
end

---The lines for an answer of `list/explain` with `item`; `noun` ("item", "row") names the item
---in the line said when no kept change concerns it.
---@param answer table
---@param noun string
---@return string[]
function M.lines(answer, noun)
  if type(answer) ~= 'table' or type(answer.version) ~= 'number' then
    return { 'No kept change concerns this ' .. noun .. '.' }
  end
  local explain = type(answer.explain) == 'table' and answer.explain or {}
  local lines = { M.header(answer.version, explain.source) }
  local expanded = {}
  local changeset = type(answer.changeset) == 'table' and answer.changeset or {}
  for _, id in ipairs(type(changeset.expanded) == 'table' and changeset.expanded or {}) do
    expanded[id] = true
  end
  for _, cause in ipairs(type(explain.causes) == 'table' and explain.causes or {}) do
    vim.list_extend(lines, M.cause_lines(cause, expanded))
  end
  return lines
end

return M
