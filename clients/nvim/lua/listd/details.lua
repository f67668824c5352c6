-- `K`: an item's details (`query/item`) and why it last changed (`list/explain`), as readable lines in a float.
local explain = require('listd.explain')
local render = require('listd.render')
local session = require('listd.session')
local words = require('listd.words')

local M = {}

local function yes(value)
  return value == true and 'yes' or 'no'
end

local function str(value)
  return type(value) == 'string' and value or nil
end

-- A cell's value as its row shows it, a string quoted (as the other lines quote texts).
local function cell(value)
  if type(value) == 'string' then
    return words.quoted(value, math.huge)
  end
  local shown = render.cell_text(value)
  return shown ~= '' and shown or 'none'
end

---The item's details as lines: id, (in a table) its cells by column title, texts, where it is, its
---outline place, state, accessories (in the order the row shows them), actions and data — in words,
---not JSON.
---@param item table itemInfo of `query/item`
---@param context table|nil {columns?: the table's columns, list?: the list asked, view?: the view shown}
---@return string[]
function M.item_lines(item, context)
  context = context or {}
  local lines = { 'id: ' .. tostring(item.id) }
  if context.view and context.list then
    lines[#lines + 1] = 'list: ' .. context.list .. ' (the source of view ' .. context.view .. ')'
  end
  local function add(label, value)
    if str(value) then
      lines[#lines + 1] = label .. ': ' .. words.quoted(value, math.huge)
    end
  end
  local columns = type(context.columns) == 'table' and #context.columns > 0 and context.columns or nil
  if columns then
    -- A table's row shows its cells, not its text: the cells first, by the titles the header shows.
    local values = type(item.cells) == 'table' and item.cells or {}
    for _, column in ipairs(columns) do
      local title = str(column.title) or tostring(column.id)
      lines[#lines + 1] = title .. ': ' .. cell(values[column.id])
    end
  end
  add(columns and 'text (not shown in the table)' or 'text', item.text)
  add('secondary text', item.secondaryText)
  add('image', item.image)
  local path = item.indexPath
  local where = type(path) == 'table' and #path == 2
      and string.format('index path: [%d, %d]', path[1], path[2])
    or 'hidden (under a collapsed parent)'
  lines[#lines + 1] = 'section: ' .. tostring(item.section) .. ' · ' .. where
  local children = type(item.children) == 'table' and #item.children or 0
  lines[#lines + 1] = string.format(
    'level: %d · parent: %s · children: %d',
    tonumber(item.level) or 0,
    str(item.parent) or 'none',
    children
  )
  lines[#lines + 1] = 'expanded: ' .. yes(item.expanded) .. ' · selected: ' .. yes(item.selected)
  if item.selectable == false or item.movable == true then
    lines[#lines + 1] = 'selectable: ' .. yes(item.selectable ~= false) .. ' · movable: ' .. yes(item.movable)
  end
  local accessories = type(item.accessories) == 'table' and render.ordered_accessories(item.accessories) or nil
  lines[#lines + 1] = 'accessories: ' .. words.accessory_list(accessories, math.huge)
  for _, kind in ipairs({
    { 'leadingSwipeActions', 'leading swipe actions' },
    { 'trailingSwipeActions', 'trailing swipe actions' },
    { 'contextMenuActions', 'context menu' },
  }) do
    local actions = item[kind[1]]
    if type(actions) == 'table' and #actions > 0 then
      lines[#lines + 1] = kind[2] .. ': ' .. words.action_list(actions, math.huge)
    end
  end
  local data = item.data
  if type(data) == 'table' and next(data) ~= nil and not vim.tbl_islist(data) then
    -- An object: one line per member, sorted, each value in words.
    local keys = vim.tbl_keys(data)
    table.sort(keys)
    for _, key in ipairs(keys) do
      lines[#lines + 1] = 'data.' .. key .. ': ' .. words.value(data[key], 'data')
    end
  elseif data ~= nil and data ~= vim.NIL then
    lines[#lines + 1] = 'data: ' .. words.value(data, 'data')
  end
  return lines
end

---Every line of the window: the details, a blank line, then "Why it last changed" and its lines.
---@param item table itemInfo
---@param answer table|nil the `list/explain` answer
---@param err table|nil its error
---@param context table|nil as `item_lines` takes it
---@return string[]
function M.lines(item, answer, err, context)
  local lines = M.item_lines(item, context)
  lines[#lines + 1] = ''
  lines[#lines + 1] = 'Why it last changed'
  if err then
    lines[#lines + 1] = 'list/explain: ' .. tostring(err.message)
  else
    vim.list_extend(lines, explain.lines(answer, 'item'))
  end
  return lines
end

-- Calls `done` with the list that holds the items of `list`, whose source (for a view) is `source`: a view's
-- rows keep their source's item ids, so its items are its source's — through views of views, the first
-- list that is not a view (Protocol/README.md, Live views). Their details and changes are asked there.
local function origin(list, source, done, depth)
  if type(source) ~= 'string' or depth > 16 then
    return done(list)
  end
  session.request('list/info', { list = source }, function(err, info)
    origin(source, not err and type(info) == 'table' and info.source or nil, done, depth + 1)
  end)
end

---`K`: asks `query/item` and `list/explain` about `item` of `list` (of its source list when `list` is a
---live view: the item's own last change, not the view's), then shows the lines in a floating window
---(focus it with `K` again, as with |vim.lsp.util.open_floating_preview()|).
---@param list string
---@param item string
---@param report function called with a failed request's error
---@param info table|nil the list's `list/info` (its `columns`, a view's `source`)
function M.show(list, item, report, info)
  info = type(info) == 'table' and info or {}
  origin(list, info.source, function(holder)
    session.request('query/item', { list = holder, item = item }, function(err, result)
      if err then
        return report(err)
      end
      session.request('list/explain', { list = holder, item = item }, function(explain_err, answer)
        local context = { columns = info.columns, list = holder, view = holder ~= list and list or nil }
        local lines = M.lines(result.item, answer, explain_err, context)
        vim.lsp.util.open_floating_preview(lines, '', { border = 'single', focus_id = 'listd-details' })
      end)
    end)
  end, 0)
end

return M
