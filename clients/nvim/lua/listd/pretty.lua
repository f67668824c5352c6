-- Indented JSON with sorted keys, for the details window (vim.json.encode writes one line).
local M = {}

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

local function encode(value, indent, out)
  if type(value) ~= 'table' or value == vim.NIL then
    out[#out + 1] = vim.json.encode(value)
    return
  end
  local inner = indent .. '  '
  if is_array(value) then
    if #value == 0 then
      out[#out + 1] = '[]'
      return
    end
    out[#out + 1] = '[\n'
    for i, item in ipairs(value) do
      out[#out + 1] = inner
      encode(item, inner, out)
      out[#out + 1] = i < #value and ',\n' or '\n'
    end
    out[#out + 1] = indent .. ']'
    return
  end
  local keys = vim.tbl_keys(value)
  table.sort(keys)
  if #keys == 0 then
    out[#out + 1] = '{}'
    return
  end
  out[#out + 1] = '{\n'
  for i, key in ipairs(keys) do
    out[#out + 1] = inner .. vim.json.encode(tostring(key)) .. ': '
    encode(value[key], inner, out)
    out[#out + 1] = i < #keys and ',\n' or '\n'
  end
  out[#out + 1] = indent .. '}'
end

---A JSON value as indented text with sorted keys.
---@param value any
---@return string
function M.json(value)
  local out = {}
  encode(value, '', out)
  return table.concat(out)
end

return M
