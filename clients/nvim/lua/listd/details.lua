-- `K`: an item's details (`query/item`) and why it last changed (`list/explain`), as readable lines in a float.
local explain = require('listd.explain')
local session = require('listd.session')
local words = require('listd.words')

local M = {}

local function yes(value)
  return value == true and 'yes' or 'no'
end

local function str(value)
  return type(value) == 'string' and value or nil
end

---The item's details as lines: id, texts, where it is, its outline place, state, accessories,
---actions and data — in words, not JSON.
---@param item table itemInfo of `query/item`
---@return string[]
function M.item_lines(item)
  local lines = { 'id: ' .. tostring(item.id) }
  local function add(label, value)
    if str(value) then
      lines[#lines + 1] = label .. ': ' .. words.quoted(value, math.huge)
    end
  end
  add('text', item.text)
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
  lines[#lines + 1] = 'accessories: ' .. words.accessory_list(item.accessories, math.huge)
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
---@return string[]
function M.lines(item, answer, err)
  local lines = M.item_lines(item)
  lines[#lines + 1] = ''
  lines[#lines + 1] = 'Why it last changed'
  if err then
    lines[#lines + 1] = 'list/explain: ' .. tostring(err.message)
  else
    vim.list_extend(lines, explain.lines(answer, 'item'))
  end
  return lines
end

---`K`: asks `query/item` and `list/explain` about `item` of `list`, then shows the lines in a
---floating window (focus it with `K` again, as with |vim.lsp.util.open_floating_preview()|).
---@param list string
---@param item string
---@param report function called with a failed request's error
function M.show(list, item, report)
  session.request('query/item', { list = list, item = item }, function(err, result)
    if err then
      return report(err)
    end
    session.request('list/explain', { list = list, item = item }, function(explain_err, answer)
      local lines = M.lines(result.item, answer, explain_err)
      vim.lsp.util.open_floating_preview(lines, '', { border = 'single', focus_id = 'listd-details' })
    end)
  end)
end

return M
