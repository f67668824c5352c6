-- The field a person names for :Listd sort, resolved as listctl resolves it (ColumnFields), or refused in one line.
local M = {}

-- The built-in fields of an item (Protocol/README.md, Live views), which no column shadows.
M.builtin = { 'text', 'secondaryText', 'image', 'id', 'data' }

-- The id of the column `name` names: its id, then its title, ignoring case; nil if none.
local function column(name, columns)
  local lower = name:lower()
  for _, c in ipairs(columns) do
    if c.id == name or c.id:lower() == lower then
      return c.id
    end
  end
  for _, c in ipairs(columns) do
    if type(c.title) == 'string' and c.title:lower() == lower then
      return c.id
    end
  end
  return nil
end

---The field `name` means among `columns` ({id, title}[]): a column (id or title, any case; `cells.NAME` too), a
---built-in field (any case) or a `data.` path; nil when it names nothing of the list, which the daemon would refuse.
---@param name string
---@param columns table[]
---@return string|nil
function M.resolve(name, columns)
  local cell = name:match('^cells%.(.+)$')
  if cell then
    local id = column(cell, columns)
    return id and ('cells.' .. id) or nil
  end
  if vim.tbl_contains(M.builtin, name) or name:match('^data%.') then
    return name
  end
  local id = column(name, columns)
  if id then
    return id
  end
  for _, field in ipairs(M.builtin) do
    if field:lower() == name:lower() then
      return field
    end
  end
  return nil
end

-- The optimal string alignment distance of two arrays of characters (a swap of neighbours is one edit).
local function distance(a, b)
  local d = {}
  for i = 0, #a do
    d[i] = { [0] = i }
  end
  for j = 0, #b do
    d[0][j] = j
  end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a[i] == b[j] and 0 or 1
      d[i][j] = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a[i] == b[j - 1] and a[i - 1] == b[j] then
        d[i][j] = math.min(d[i][j], d[i - 2][j - 2] + 1)
      end
    end
  end
  return d[#a][#b]
end

local function chars(s)
  return vim.fn.split(s:lower(), '\\zs')
end

---The candidate nearest `word` if it is near enough to be a typo (as listctl's Suggestion: at most 1 edit up to
---4 characters, 2 up to 8, 3 beyond); ties go to the earlier candidate.
---@param word string
---@param candidates string[]
---@return string|nil
function M.closest(word, candidates)
  local typed = chars(word)
  local limit = #typed <= 4 and 1 or #typed <= 8 and 2 or 3
  local best, best_distance
  for _, candidate in ipairs(candidates) do
    if candidate ~= word then
      local d = distance(typed, chars(candidate))
      if d <= limit and (not best_distance or d < best_distance) then
        best, best_distance = candidate, d
      end
    end
  end
  return best
end

---The one-line refusal of `name`: `no column 'nope' (did you mean 'cpu'?): command, pid, …` for a table,
---`unknown field 'nonsense' (did you mean 'text'?): text, secondaryText, image, id or data.PATH` otherwise.
---@param name string
---@param columns table[]
---@return string
function M.unknown(name, columns)
  local candidates = vim.list_extend({}, M.builtin)
  local ids = {}
  for _, c in ipairs(columns) do
    ids[#ids + 1] = c.id
    candidates[#candidates + 1] = c.id
    if type(c.title) == 'string' then
      candidates[#candidates + 1] = c.title
    end
  end
  local near = M.closest(name, candidates)
  local hint = near and (" (did you mean '" .. near .. "'?)") or ''
  if #columns > 0 then
    return "no column '" .. name .. "'" .. hint .. ': ' .. table.concat(ids, ', ')
  end
  return "unknown field '" .. name .. "'" .. hint .. ': text, secondaryText, image, id or data.PATH'
end

return M
