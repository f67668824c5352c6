-- Wire values in words (quoted strings, accessories, actions), shortened: as listd-tui's ValueWords words them.
local M = {}

---The longest value shown, in characters; longer ones end in `…`.
M.limit = 40

local function is_null(value)
  return value == nil or value == vim.NIL
end

---`text` cut to `limit` characters (default M.limit): the first `limit - 1` and `…`.
---@param text string
---@param limit number|nil
---@return string
function M.shortened(text, limit)
  limit = limit or M.limit
  if vim.fn.strchars(text) <= limit then
    return text
  end
  return vim.fn.strcharpart(text, 0, limit - 1) .. '…'
end

-- A JSON string literal of the whole of `text`: `"` `\` and control characters escaped.
local function literal(text)
  local escaped = text:gsub('[%c"\\]', function(c)
    if c == '"' or c == '\\' then
      return '\\' .. c
    elseif c == '\n' then
      return '\\n'
    elseif c == '\t' then
      return '\\t'
    elseif c == '\r' then
      return '\\r'
    elseif c:byte() < 0x20 then
      return string.format('\\u%04x', c:byte())
    end
    return c -- DEL (0x7f) is %c in Lua but not escaped in JSON
  end)
  return '"' .. escaped .. '"'
end

---`"text"`, cut to `limit` characters, escaped.
---@param text string
---@param limit number|nil
---@return string
function M.quoted(text, limit)
  return literal(M.shortened(text, limit))
end

local function is_array(value)
  if getmetatable(value) == getmetatable(vim.empty_dict()) and next(value) == nil then
    return false
  end
  local count = 0
  for key in pairs(value) do
    if type(key) ~= 'number' then
      return false
    end
    count = count + 1
  end
  return count == #value
end

local function number(value)
  if value == math.floor(value) and math.abs(value) < 1e15 then
    return string.format('%d', value)
  end
  local text = string.format('%.15g', value)
  return tonumber(text) == value and text or string.format('%.17g', value)
end

---Compact JSON with object members sorted by name (as listd-tui writes it).
---@param value any
---@return string
function M.compact(value)
  if is_null(value) then
    return 'null'
  elseif type(value) == 'boolean' then
    return tostring(value)
  elseif type(value) == 'number' then
    return number(value)
  elseif type(value) == 'string' then
    return literal(value)
  elseif type(value) ~= 'table' then
    return tostring(value)
  elseif is_array(value) then
    local parts = {}
    for i, item in ipairs(value) do
      parts[i] = M.compact(item)
    end
    return '[' .. table.concat(parts, ',') .. ']'
  end
  local keys = vim.tbl_keys(value)
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    parts[i] = literal(tostring(key)) .. ':' .. M.compact(value[key])
  end
  return '{' .. table.concat(parts, ',') .. '}'
end

local function text_of(value)
  return type(value) == 'string' and value or ''
end

---One accessory in words: `badge "2"`, `progress 53%`, `toggle on`, `checkmark`.
---@param accessory table
---@return string
function M.accessory(accessory)
  local kind = type(accessory) == 'table' and type(accessory.type) == 'string' and accessory.type or '?'
  if kind == 'label' or kind == 'badge' then
    return kind .. ' ' .. M.quoted(text_of(accessory.text))
  elseif kind == 'image' or kind == 'custom' then
    return kind .. ' ' .. M.quoted(text_of(accessory.name))
  elseif kind == 'progress' then
    local value = math.max(0, math.min(1, tonumber(accessory.value) or 0))
    return 'progress ' .. math.floor(value * 100 + 0.5) .. '%'
  elseif kind == 'toggle' then
    return accessory.isOn == true and 'toggle on' or 'toggle off'
  elseif kind == 'popUpMenu' then
    local count = type(accessory.actions) == 'table' and #accessory.actions or 0
    return 'popUpMenu (' .. count .. ' action' .. (count == 1 and '' or 's') .. ')'
  end
  return kind
end

---Accessories in words, `none` for none, cut to `limit`.
---@param accessories table
---@param limit number|nil
---@return string
function M.accessory_list(accessories, limit)
  if type(accessories) ~= 'table' or #accessories == 0 then
    return 'none'
  end
  local parts = {}
  for i, accessory in ipairs(accessories) do
    parts[i] = M.accessory(accessory)
  end
  return M.shortened(table.concat(parts, ', '), limit)
end

---Actions by title, `none` for none: `Cancel (destructive), Archive`, cut to `limit`.
---@param actions table
---@param limit number|nil
---@return string
function M.action_list(actions, limit)
  if type(actions) ~= 'table' or #actions == 0 then
    return 'none'
  end
  local parts = {}
  for i, action in ipairs(actions) do
    local title = type(action.title) == 'string' and action.title or tostring(action.id)
    parts[i] = action.style == 'destructive' and (title .. ' (destructive)') or title
  end
  return M.shortened(table.concat(parts, ', '), limit)
end

---A field's value: `not set` for null, strings quoted, accessories and actions in words, other
---values as compact JSON — each at most M.limit characters.
---@param value any
---@param field string
---@return string
function M.value(value, field)
  if is_null(value) then
    return 'not set'
  elseif field == 'accessories' and type(value) == 'table' then
    return M.accessory_list(value)
  elseif field:match('Actions$') and type(value) == 'table' then
    return M.action_list(value)
  elseif type(value) == 'string' then
    return M.quoted(value)
  end
  return M.shortened(M.compact(value))
end

return M
