-- What the buffer-local maps do: user events (select, action, toggle, refresh) and outline changes.
local buffer = require('listd.buffer')
local render = require('listd.render')
local session = require('listd.session')

local M = {}

-- Reports a failed request (the daemon's message names what was wrong).
local function report(err)
  if err then
    session.notify(tostring(err.message), vim.log.levels.WARN)
  end
end

-- What the line under the cursor is when it is not a row: 'title', or 'header'/'footer' and the section
-- ({id, header?, footer?, count}), or 'loading' for a row not fetched yet.
local function line_kind(view)
  local model = view.mirror
  if not model then
    return 'loading'
  end
  local kind, s = model.layout:at_line(vim.api.nvim_win_get_cursor(0)[1])
  if kind == 'row' or kind == nil then
    return 'loading'
  end
  return kind, s and model.layout.sections[s], s
end

-- Says why a key that acts on an item did nothing: the cursor is on the title, a header or a footer, or on
-- a row still loading.
local function not_an_item(view, what)
  local kind, section = line_kind(view)
  if kind == 'loading' then
    return session.notify('this row is still loading: ' .. what .. ' once it shows', vim.log.levels.INFO)
  end
  local name = kind == 'title' and 'the title line'
    or string.format("the %s of section %s", kind, section.header and ("'" .. section.header .. "'") or section.id)
  session.notify(name .. ': ' .. what .. ' on an item line', vim.log.levels.INFO)
end

-- The view and row under the cursor, or nil (headers, footers, other buffers).
local function target()
  local view, row = buffer.current()
  if not view or not row then
    return nil
  end
  return view, row
end

-- On a section header, moves the cursor to the section's first row; true when it did (or said why not).
local function enter_section(view)
  local kind, section, s = line_kind(view)
  if kind ~= 'header' then
    return false
  end
  if section.count == 0 then
    session.notify('section ' .. (section.header or section.id) .. ' has no rows', vim.log.levels.INFO)
  else
    vim.api.nvim_win_set_cursor(0, { view.mirror.layout.first_line[s] + 1, 0 })
  end
  return true
end

-- The words `K` shows for a section header or footer, or the title line: what it is and what it holds.
local function describe_line(view)
  local kind, section = line_kind(view)
  if kind == 'header' or kind == 'footer' then
    local parts = { string.format('section %s: %d %s', section.id, section.count, section.count == 1 and 'row' or 'rows') }
    if section.header then
      parts[#parts + 1] = "header '" .. section.header .. "'"
    end
    if section.footer then
      parts[#parts + 1] = "footer '" .. section.footer .. "'"
    end
    return table.concat(parts, ' · ')
  elseif kind == 'title' then
    local layout = view.mirror.layout
    local sections = #layout.sections
    return string.format('%s v%d: %d %s in %d %s (<CR> on a header goes to its first row; K on an item explains it)',
      view.list, view.mirror.version, layout.total_rows, layout.total_rows == 1 and 'row' or 'rows', sections,
      sections == 1 and 'section' or 'sections')
  end
  return nil
end

---`<CR>`: selects the item under the cursor, or deselects it when it is selected (`event/select|deselect`); on a
---section header, goes to the section's first row; elsewhere, says why it does nothing.
function M.select()
  local view, row = target()
  if not view then
    view = buffer.current()
    if view and not enter_section(view) then
      not_an_item(view, '<CR> selects')
    end
    return
  end
  if row.selectable == false then
    session.notify(render.label(row) .. ' is not selectable', vim.log.levels.WARN)
    return
  end
  local method = view.mirror.selection[row.id] and 'event/deselect' or 'event/select'
  session.request(method, { list = view.list, item = row.id }, report)
end

-- The answer's rows are left out (`rows: "none"`): the buffer follows the notifications, and expanding a
-- node of 100,000 children would otherwise answer all of them.
local function outline(method, view, item, recursive)
  local params = { list = view.list, item = item, rows = 'none' }
  if recursive then
    params.recursive = true
  end
  session.request(method, params, report)
end

---`zo` / `zO`: expands the folder under the cursor (recursively: its whole subtree).
---@param recursive boolean|nil
function M.expand(recursive)
  local view, row = target()
  if view and row.hasChildren == true and (recursive or row.expanded ~= true) then
    outline('outline/expand', view, row.id, recursive)
  end
end

---`zc` / `zC`: collapses the folder under the cursor, or the one that holds it (as `zc` closes the enclosing fold).
---@param recursive boolean|nil
function M.collapse(recursive)
  local view, row = target()
  if not view then
    return
  end
  if row.hasChildren == true and (row.expanded == true or recursive) then
    outline('outline/collapse', view, row.id, recursive)
  elseif type(row.parent) == 'string' then
    outline('outline/collapse', view, row.parent, recursive)
  end
end

---`za`: expands a collapsed folder, collapses an expanded one; on a leaf, collapses its parent.
function M.toggle_outline()
  local view, row = target()
  if not view then
    return
  end
  if row.hasChildren == true and row.expanded ~= true then
    outline('outline/expand', view, row.id)
  else
    M.collapse(false)
  end
end

---`zR` / `zM`: expands or collapses every item of every outline section.
---@param expand boolean
function M.all(expand)
  local view = buffer.current()
  if view then
    outline(expand and 'outline/expand' or 'outline/collapse', view, nil)
  end
end

---The actions a row offers, in menu order, without repeats: leading and trailing swipe actions,
---context-menu actions, then pop-up-menu accessory actions.
---@param row table
---@return table[] {id, title, style}
function M.row_actions(row)
  local actions, seen = {}, {}
  local function add(list)
    for _, action in ipairs(type(list) == 'table' and list or {}) do
      if type(action) == 'table' and type(action.id) == 'string' and not seen[action.id] then
        seen[action.id] = true
        actions[#actions + 1] = action
      end
    end
  end
  add(row.leadingSwipeActions)
  add(row.trailingSwipeActions)
  add(row.contextMenuActions)
  for _, accessory in ipairs(type(row.accessories) == 'table' and row.accessories or {}) do
    if accessory.type == 'popUpMenu' then
      add(accessory.actions)
    end
  end
  return actions
end

---`ga`: picks one of the row's actions with vim.ui.select and sends it (`event/action`).
function M.actions()
  local view, row = target()
  if not view then
    return
  end
  local actions = M.row_actions(row)
  if #actions == 0 then
    session.notify(render.label(row) .. ' has no actions', vim.log.levels.INFO)
    return
  end
  vim.ui.select(actions, {
    prompt = 'Action on ' .. render.label(row) .. ':',
    kind = 'listd.action',
    format_item = function(action)
      local title = type(action.title) == 'string' and action.title or action.id
      return action.style == 'destructive' and (title .. ' (destructive)') or title
    end,
  }, function(action)
    if action then
      session.request('event/action', { list = view.list, item = row.id, action = action.id }, report)
    end
  end)
end

---`gt`: flips the row's toggle accessory (`event/toggle`); the list's owner decides what happens.
function M.toggle_switch()
  local view, row = target()
  if not view then
    return
  end
  for _, accessory in ipairs(type(row.accessories) == 'table' and row.accessories or {}) do
    if accessory.type == 'toggle' then
      session.request('event/toggle', { list = view.list, item = row.id, isOn = accessory.isOn ~= true }, report)
      return
    end
  end
  session.notify(render.label(row) .. ' has no toggle', vim.log.levels.INFO)
end

---`r`: asks the list's owner to refresh (`event/refresh`) and says when it has.
function M.refresh()
  local view = buffer.current()
  if not view then
    return
  end
  session.notify('refreshing ' .. view.list .. '…')
  session.request('event/refresh', { list = view.list }, function(err, result)
    if err then
      report(err)
    else
      session.notify('refreshed ' .. view.list .. ' (v' .. tostring(result.version) .. ')')
    end
  end)
end

---`K`: the item's details and why it last changed (`query/item`, `list/explain`) in a floating window; on a
---header, a footer or the title, what it is and holds.
function M.details()
  local view, row = target()
  if view then
    return require('listd.details').show(view.list, row.id, report, view.info)
  end
  view = buffer.current()
  if not view then
    return
  end
  local words = describe_line(view)
  if words then
    session.notify(words)
  else
    not_an_item(view, 'K explains')
  end
end

---Closes a list buffer (which unsubscribes). A live view shown in the current window gives way to its
---source list's buffer, which it replaced there (list buffers are wiped when hidden); any other buffer to
---the one Vim shows next (the previous one).
---@param view table
function M.close_buffer(view)
  local derived = buffer.derived[view.list]
  if derived and derived.source and vim.api.nvim_get_current_buf() == view.buf then
    vim.cmd('edit ' .. vim.fn.fnameescape('listd://' .. derived.source))
  end
  if vim.api.nvim_buf_is_valid(view.buf) then
    vim.api.nvim_buf_delete(view.buf, { force = true })
  end
end

---`q`: closes the list buffer; see `close_buffer`.
function M.close()
  local view = buffer.current()
  if view then
    M.close_buffer(view)
  end
end

return M
