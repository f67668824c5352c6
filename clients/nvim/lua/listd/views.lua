-- :Listd sort and :Listd filter: a live view of the current list (view/create once, view/update after), shown in its buffer.
local buffer = require('listd.buffer')
local config = require('listd.config')
local fields = require('listd.fields')
local session = require('listd.session')

local M = {
  ---The views this Neovim created, by view id: {source, filter?, sort?}.
  created = {},
  ---The view of each source list, by source id.
  of_source = {},
}

local counter = 0
-- The error for a list (or view) the daemon does not have.
local UNKNOWN_LIST = -32010
local apply_to

local function fail(message)
  session.notify(message, vim.log.levels.ERROR)
end

-- Records a view's context for its buffer (source, title, sort, filter) and redraws what shows it.
local function remember(id, entry)
  local old = buffer.derived[id]
  local version = old and old.version
  if not version then -- the title shows the source's version (listd.buffer keeps it up to date)
    local info = session.request_sync('list/info', { list = entry.source })
    version = type(info) == 'table' and info.version or nil
  end
  buffer.derived[id] = { source = entry.source, title = entry.title, sort = entry.sort, filter = entry.filter, version = version }
  buffer.context_changed(id)
end

-- Disposes a created view when its buffer goes away.
local function dispose_with(buf, id)
  vim.api.nvim_create_autocmd('BufWipeout', {
    buffer = buf,
    once = true,
    callback = function()
      local entry = M.created[id]
      if not entry then
        return
      end
      M.created[id], buffer.derived[id] = nil, nil
      if M.of_source[entry.source] == id then
        M.of_source[entry.source] = nil
      end
      if session.connected() then
        session.request('list/dispose', { list = id })
      end
    end,
  })
end

-- Shows list `id` in the current window (the plugin's `listd://` buffer).
local function show(id)
  vim.cmd('edit ' .. vim.fn.fnameescape('listd://' .. id))
  dispose_with(vim.api.nvim_get_current_buf(), id)
end

-- Applies `change` ({filter?, sort?}, vim.NIL removing one) to the current list's view: creates it the
-- first time (`<list>·nvim-<n>`), updates it afterwards, and shows it in the current window.
local function apply(change)
  local view = buffer.current()
  if not view then
    return fail('not a list buffer: open a list first (:Listd open {list})')
  end
  local source = view.list
  local id = M.created[view.list] and view.list or M.of_source[view.list]
  if id and M.created[id] then
    local entry = M.created[id]
    local params = vim.tbl_extend('force', { view = id }, change)
    local _, err = session.request_sync('view/update', params)
    if err and err.code == UNKNOWN_LIST then
      -- The view went with its session (a new connection): make a new one of the same source, same settings.
      M.created[id], M.of_source[entry.source], source = nil, nil, entry.source
      change = vim.tbl_extend('force', { filter = entry.filter or vim.NIL, sort = entry.sort or vim.NIL }, change)
      return apply_to(source, change, entry.title)
    elseif err then
      return fail('view/update ' .. id .. ': ' .. tostring(err.message))
    end
    for key, value in pairs(change) do
      M.created[id][key] = value ~= vim.NIL and value or nil
    end
    remember(id, M.created[id])
    if view.list ~= id then
      show(id)
    end
    return id
  end
  return apply_to(source, change, type(view.info) == 'table' and type(view.info.title) == 'string' and view.info.title or nil)
end

-- Creates a view of `source` (titled `title`) with `change` and shows it.
apply_to = function(source, change, title)
  local params = { source = source }
  for key, value in pairs(change) do
    if value ~= vim.NIL then
      params[key] = value
    end
  end
  local err
  for _ = 1, 20 do -- another client may hold the next id: take the one after
    counter = counter + 1
    params.view = source .. '·nvim-' .. counter
    _, err = session.request_sync('view/create', params)
    if not err or not tostring(err.message):match('exists') then
      break
    end
  end
  if err then
    return fail('view/create ' .. params.view .. ': ' .. tostring(err.message))
  end
  M.created[params.view] = { source = source, title = title, filter = params.filter, sort = params.sort }
  M.of_source[source] = params.view
  remember(params.view, M.created[params.view])
  show(params.view)
  return params.view
end

-- A new connection (the daemon restarted, or this Neovim reconnected): every view this Neovim made that the daemon
-- no longer has is made again, same id and definition, before the buffers subscribe again (listd.buffer's hook runs
-- after this one). A view whose source is gone stays as it is: its buffer says so.
table.insert(session.on_connect, 1, function(conn)
  for id, entry in pairs(M.created) do
    local params = { view = id, source = entry.source, filter = entry.filter, sort = entry.sort }
    local _, err = conn:request_sync('view/create', params, config.options.timeout)
    if err and not tostring(err.message):match('exists') and err.code ~= UNKNOWN_LIST then
      fail('view/create ' .. id .. ': ' .. tostring(err.message))
    end
  end
end)

-- `:Listd sort`'s argument as {field, order}: a trailing `asc` or `desc` word is the order, the rest the field, which
-- may hold spaces (a column title such as `CPU %`), be quoted ('CPU %' or "CPU %") or escape them (CPU\ %).
local function parse_sort(arg)
  local text, order = vim.trim(arg or ''), ''
  local rest, last = text:match('^(.-)%s+(%S+)$')
  if last and (last:lower() == 'asc' or last:lower() == 'desc') then
    text, order = vim.trim(rest), last:lower()
  end
  local quote = text:sub(1, 1)
  if #text >= 2 and (quote == '"' or quote == "'") and text:sub(-1) == quote then
    text = text:sub(2, -2)
  else
    text = text:gsub('\\(%s)', '%1')
  end
  return text, order
end

---`:Listd sort {column} [desc]`: sorts the current list's view by a column (its id or title, in any case, spaces
---and all) or a field, descending with `desc`.
---@param arg string|nil
function M.sort(arg)
  local field, order = parse_sort(arg)
  if field == '' then
    return fail('sort by what? :Listd sort {column} [desc]')
  end
  local view = buffer.current()
  local info = view and view.info
  local resolved = field
  -- Before the list's info arrives there is nothing to check against: the daemon checks.
  if type(info) == 'table' then
    local columns = type(info.columns) == 'table' and info.columns or {}
    resolved = fields.resolve(field, columns)
    if not resolved then
      return fail(fields.unknown(field, columns))
    end
  end
  return apply({ sort = { { field = resolved, descending = order == 'desc' } } })
end

---`:Listd filter {text}`: shows the current list's rows containing `text`; no text removes the filter.
---@param arg string|nil
function M.filter(arg)
  local text = vim.trim(arg or '')
  if text == '' then
    local view = buffer.current()
    if view and not M.created[view.list] and not M.of_source[view.list] then
      return session.notify(view.list .. ' has no filter')
    end
    return apply({ filter = vim.NIL })
  end
  return apply({ filter = { query = text } })
end

---The column ids and titles of the current list (for completion).
---@return string[]
function M.column_ids()
  local view = buffer.current()
  local columns = view and view.info and view.info.columns
  local names, seen = {}, {}
  for _, column in ipairs(type(columns) == 'table' and columns or {}) do
    for _, name in ipairs({ column.id, column.title }) do
      if type(name) == 'string' and not seen[name:lower()] then
        seen[name:lower()] = true
        names[#names + 1] = name
      end
    end
  end
  return names
end

return M
